import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Rules of docs/graphql.md that the other GraphQL tests do not send (issue 37 item 6). */
describe('GraphQL: partial results, concealed fields, names GraphQL cannot carry', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const graphql = (query: string) => t.request.post('/graphql').set(auth()).send({ query });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(auth())
      .send({
        collection: 'members',
        fields: [
          { field: 'name', type: 'string' },
          { field: 'pin', type: 'hash', meta: { special: ['hash', 'conceal'] } },
          { field: '__note', type: 'string' },
        ],
      })
      .expect(200);
    await t.request.post('/items/members').set(auth()).send({ name: 'Ada', pin: '1234', __note: 'kept from GraphQL' }).expect(200);
  });
  afterAll(() => t.close());

  it('answers 200 with data and errors when one root field fails and another succeeds', async () => {
    const long = 'x'.repeat(300);
    const response = await graphql(`mutation { ok: create_members_item(data: { name: "Grace" }) { name } bad: create_members_item(data: { name: "${long}" }) { name } }`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({ ok: { name: 'Grace' }, bad: null });
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].path).toEqual(['bad']);
    expect(response.body.errors[0].extensions.field).toBe('name');
    // Alone, the failing field still answers 200 with its error (GraphQL over HTTP, Directus; issue 31).
    const alone = await graphql(`mutation { bad: create_members_item(data: { name: "${long}" }) { name } }`).expect(200);
    expect(alone.body).toMatchObject({ data: { bad: null }, errors: [{ extensions: { code: 'VALUE_TOO_LONG', field: 'name' } }] });
  });

  it('serves no concealed field and no field whose name GraphQL reserves ("__…"), in queries or introspection', async () => {
    const type = await graphql('{ __type(name: "members") { fields { name } } }');
    expect(type.status, JSON.stringify(type.body)).toBe(200);
    const names = (type.body.data.__type.fields as Array<{ name: string }>).map((field) => field.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'name']));
    expect(names).not.toContain('pin');
    expect(names).not.toContain('__note');
    const asked = await graphql('{ members { pin } }').expect(400);
    expect(asked.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
    // REST still serves the field GraphQL cannot name.
    expect((await t.request.get('/items/members/1?fields=__note').set(auth()).expect(200)).body.data).toEqual({ __note: 'kept from GraphQL' });
  });

  it('leaves out a collection whose name GraphQL reserves ("__…"), and still answers every other query', async () => {
    await t.request.post('/collections').set(auth()).send({ collection: '__drafts', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const root = await graphql('{ __schema { queryType { fields { name } } } }');
    expect(root.status, JSON.stringify(root.body)).toBe(200);
    const names = (root.body.data.__schema.queryType.fields as Array<{ name: string }>).map((field) => field.name);
    expect(names).toContain('members');
    expect(names.filter((name) => name.startsWith('__'))).toEqual([]);
    expect((await graphql('{ members(sort: ["id"], limit: 1) { name } }').expect(200)).body.data).toEqual({ members: [{ name: 'Ada' }] });
  });
});
