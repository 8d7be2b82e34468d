export default (router) => {
  router.get('/', () => ({ status: 200, body: 'still here' }));
  router.get('/spin', () => {
    for (;;) {}
  });
};
