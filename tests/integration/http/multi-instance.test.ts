import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.ts';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('two instances sharing PostgreSQL and Redis', () => {
  let first: TestApp;
  let instance: SecondInstance;
  let second: SecondInstance['request'];
  let token: string;

  beforeAll(async () => {
    first = await createTestApp({ REDIS_URL });
    instance = await startSecondInstance(first);
    second = instance.request;
    token = await first.login();
  });
  afterAll(async () => {
    await instance.close();
    await first.close();
  });

  it('sees a collection created on the other instance without a restart', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    await second.get('/items/late').set(auth).expect(403);
    await first.request.post('/collections').set(auth).send({ collection: 'late', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await first.request.post('/items/late').set(auth).send({ title: 'made on instance 1' }).expect(200);
    await eventually(async () => {
      const response = await second.get('/items/late?fields=title').set(auth);
      expect(response.body.data).toEqual([{ title: 'made on instance 1' }]);
    }, 3000);
  });

  it('accepts a token issued by the other instance (shared SECRET, no sticky sessions)', async () => {
    await second.get('/users/me').set({ Authorization: `Bearer ${token}` }).expect(200);
  });

  it('applies a permission changed on one instance to requests on the other', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    await first.request.post('/items/late').set(auth).send({ title: 'second item' }).expect(200);
    const role = (await first.request.post('/roles').set(auth).send({ name: 'Late reader' }).expect(200)).body.data.id;
    await first.request.post('/users').set(auth).send({ email: 'late@example.com', password: 'late-password-1', role, status: 'active' }).expect(200);
    const reader = { Authorization: `Bearer ${await first.login('late@example.com', 'late-password-1')}` };
    await second.get('/items/late').set(reader).expect(403);
    const permission = await first.request
      .post('/permissions')
      .set(auth)
      .send({ role, collection: 'late', action: 'read', fields: 'title', permissions: { title: { _eq: 'second item' } } })
      .expect(200);
    await eventually(async () => {
      expect((await second.get('/items/late').set(reader)).body.data).toEqual([{ title: 'second item' }]);
    }, 3000);
    await first.request.patch(`/permissions/${permission.body.data.id}`).set(auth).send({ permissions: null }).expect(200);
    await eventually(async () => {
      expect((await second.get('/items/late?sort=title').set(reader)).body.data).toEqual([{ title: 'made on instance 1' }, { title: 'second item' }]);
    }, 3000);
    await first.request.delete(`/permissions/${permission.body.data.id}`).set(auth).expect(204);
    await eventually(async () => {
      expect((await second.get('/items/late').set(reader)).status).toBe(403);
    }, 3000);
  });
});
