import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

async function users(filter: object): Promise<{ status: number; body: { data?: Array<{ email: string }>; errors?: Array<{ extensions: { code: string; field?: string } }> } }> {
  const response = await t.request.get('/users').query({ fields: 'email', filter: JSON.stringify(filter) }).set('Authorization', `Bearer ${admin}`);
  return { status: response.status, body: response.body };
}

describe('GET /users with _null / _nnull on concealed and hashed fields', () => {
  it.each([
    [{ password: { _nnull: true } }, 1],
    [{ password: { _null: true } }, 0],
    [{ token: { _null: true } }, 1],
    [{ token: { _nnull: true } }, 0],
    [{ tfa_secret: { _null: true } }, 1],
  ])('%j answers 200 with %i user(s)', async (filter, count) => {
    const { status, body } = await users(filter);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(count);
  });

  it.each([
    [{ password: { _starts_with: '$argon2' } }, 'password'],
    [{ token: { _eq: 'x' } }, 'token'],
    [{ tfa_secret: { _nnull: true, _contains: 'A' } }, 'tfa_secret'],
  ])('%j is a 400 naming the field, as in Directus (issue 31)', async (filter, field) => {
    const { status, body } = await users(filter);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_QUERY', field });
  });
});
