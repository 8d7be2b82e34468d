import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/**
 * Issue 31, routes/auth/login: a document graphql-js refuses answers Directus's one `GraphQL validation error.`
 * (code GRAPHQL_VALIDATION), graphql-js's own messages and locations kept in `extensions.errors`.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('documents graphql-js refuses', () => {
  it('answer one GraphQL validation error with the details in extensions', async () => {
    const response = await t.request.post('/graphql/system').send({ query: `mutation { auth_login(email: "${TEST_ADMIN.email}") { access_token } }` });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({ message: 'GraphQL validation error.', extensions: { code: 'GRAPHQL_VALIDATION' } });
    expect(response.body.errors[0].extensions.errors).toEqual([{ message: expect.stringMatching(/\(password:\)" .* is required/), locations: [{ line: 1, column: 12 }] }]);
  });

  it('fold every problem and a syntax error the same way', async () => {
    const two = await t.request.post('/graphql/system').send({ query: '{ nope nope2 }' });
    expect(two.body.errors).toHaveLength(1);
    expect(two.body.errors[0].extensions.errors.map((error: { message: string }) => error.message)).toEqual([expect.stringContaining('"nope"'), expect.stringContaining('"nope2"')]);
    const syntax = await t.request.post('/graphql').send({ query: '{ ' });
    expect(syntax.body.errors).toMatchObject([{ message: 'GraphQL validation error.', extensions: { code: 'GRAPHQL_VALIDATION', errors: [{ message: expect.stringMatching(/^Syntax Error/) }] } }]);
  });
});
