import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('QUERY_LIMIT_DEFAULT and QUERY_LIMIT_MAX', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp({ QUERY_LIMIT_DEFAULT: '2', QUERY_LIMIT_MAX: '3' });
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
    await t.request.post('/items/notes').set(auth()).send(['a', 'b', 'c', 'd'].map((text) => ({ text }))).expect(200);
  });
  afterAll(() => t.close());

  it('returns QUERY_LIMIT_DEFAULT items without a limit', async () => {
    expect((await t.request.get('/items/notes').set(auth()).expect(200)).body.data).toHaveLength(2);
  });

  it('caps limit=-1 at QUERY_LIMIT_MAX and refuses a larger explicit limit', async () => {
    expect((await t.request.get('/items/notes?limit=-1').set(auth()).expect(200)).body.data).toHaveLength(3);
    const refused = await t.request.get('/items/notes?limit=4').set(auth()).expect(400);
    expect(refused.body.errors[0].extensions.code).toBe('INVALID_QUERY');
  });
});
