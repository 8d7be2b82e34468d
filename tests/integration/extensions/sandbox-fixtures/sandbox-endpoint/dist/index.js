import { request, readItems, sleep } from 'directus:api';

const failed = (error) => ({ status: 400, body: { error: error.message } });

// A Directus sandboxed endpoint: routes answer { status, body } and get { url, headers, body }.
export default (router) => {
  router.get('/', (req) => ({ status: 200, body: { hello: 'sandbox', url: req.url, authorization: req.headers.authorization ?? null, user: req.accountability?.user ?? null } }));
  router.post('/echo', (req) => ({ status: 201, body: { received: req.body } }));
  router.get('/fetch', async (req) => {
    const url = decodeURIComponent(req.url.split('url=')[1] ?? '');
    try {
      const response = await request(url);
      return { status: 200, body: { status: response.status, data: response.data } };
    } catch (error) {
      return failed(error);
    }
  });
  router.get('/delete', async () => {
    try {
      await request('http://127.0.0.1:1/x', { method: 'DELETE' });
      return { status: 200, body: 'sent' };
    } catch (error) {
      return failed(error);
    }
  });
  router.get('/notes', async () => ({ status: 200, body: await readItems('sandboxed_notes', { fields: ['title'], sort: ['id'] }) }));
  router.get('/secrets', async () => {
    try {
      return { status: 200, body: await readItems('secrets', {}) };
    } catch (error) {
      return failed(error);
    }
  });
  router.get('/sleep', () => {
    try {
      sleep(1);
      return { status: 200, body: 'slept' };
    } catch (error) {
      return failed(error);
    }
  });
  // Code in the sandbox can reach the host channel itself, past the directus:api functions.
  router.get('/bypass', async () => {
    try {
      await globalThis.__host('sleep', JSON.stringify([1]));
      return { status: 200, body: 'slept' };
    } catch (error) {
      return failed(error);
    }
  });
  router.get('/globals', () => ({ status: 200, body: { process: typeof process, require: typeof require, fetch: typeof fetch, setTimeout: typeof setTimeout } }));
};
