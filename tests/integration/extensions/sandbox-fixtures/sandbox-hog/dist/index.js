export default (router) => {
  router.get('/', () => ({ status: 200, body: 'still here' }));
  router.get('/grow', () => {
    const kept = [];
    for (;;) kept.push(new Uint8Array(64 * 1024), { n: kept.length, list: [1, 2, 3] });
  });
};
