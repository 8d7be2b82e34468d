import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, item 6: POST /auth/login refuses a bad body in Directus's words (its joi messages), which its
// clients and its own test suite (routes/auth/login) compare word for word.
describe('POST /auth/login validation messages (issue 31)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refusal = async (body: Record<string, unknown>) => {
    const response = await t.request.post('/auth/login').send(body).expect(400);
    return { message: response.body.errors[0].message, ...response.body.errors[0].extensions };
  };

  it('words each refusal as Directus does, naming the field', async () => {
    expect(await refusal({ email: 'invalidEmail', password: TEST_ADMIN.password })).toEqual({ message: 'Invalid payload. "email" must be a valid email.', code: 'INVALID_PAYLOAD', field: 'email', errors: expect.any(Array) });
    expect(await refusal({ email: TEST_ADMIN.email })).toMatchObject({ message: 'Invalid payload. "password" is required.', code: 'INVALID_PAYLOAD', field: 'password' });
    expect(await refusal({ password: TEST_ADMIN.password })).toMatchObject({ message: 'Invalid payload. "email" is required.', field: 'email' });
    expect(await refusal({})).toMatchObject({ message: 'Invalid payload. "email" is required.', field: 'email' });
    expect(await refusal({ email: TEST_ADMIN.email, password: '' })).toMatchObject({ message: 'Invalid payload. "password" is not allowed to be empty.', field: 'password' });
    expect(await refusal({ email: 42, password: TEST_ADMIN.password })).toMatchObject({ message: 'Invalid payload. "email" must be a string.', field: 'email' });
    expect(await refusal({ email: null, password: TEST_ADMIN.password })).toMatchObject({ message: 'Invalid payload. "email" must be a string.', field: 'email' });
    expect(await refusal({ ...TEST_ADMIN, mode: 'token' })).toMatchObject({ message: 'Invalid payload. "mode" must be one of [cookie, json, session].', field: 'mode' });
    expect(await refusal({ ...TEST_ADMIN, otp: 123456 })).toMatchObject({ message: 'Invalid payload. "otp" must be a string.', field: 'otp' });
  });

  it('still answers wrong credentials with 401 INVALID_CREDENTIALS, and signs in with the right ones', async () => {
    const wrong = await t.request.post('/auth/login').send({ email: 'test@fake.com', password: TEST_ADMIN.password }).expect(401);
    expect(wrong.body.errors[0]).toEqual({ message: 'Invalid user credentials.', extensions: { code: 'INVALID_CREDENTIALS' } });
    await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
  });
});
