import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** An app with authors and articles (views, price, status, published_at, author) for Insights tests. */
export interface InsightsFixture {
  t: TestApp;
  admin: string;
  auth(token: string): { Authorization: string };
  /** Creates a dashboard holding `panels` as the admin; returns its id and the panels' ids in order. */
  dashboard(panels: Array<{ type: string; options: Record<string, unknown> }>): Promise<{ id: string; panels: string[] }>;
  /** GET /dashboards/:id/data as `token`. */
  data(id: string, token: string, query?: Record<string, string>): Promise<Record<string, any>>;
  /** A user with a role holding `permissions`; returns a token. */
  userWithPermissions(name: string, permissions: Array<Record<string, unknown>>): Promise<string>;
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Articles as stored: published_at instants chosen around month and day boundaries. */
export const ARTICLES = [
  { title: 'Alpha', status: 'published', views: 10, price: '1.50', published_at: '2026-10-15T12:00:00Z', author: 1 },
  { title: 'Beta', status: 'published', views: 20, price: '2.25', published_at: '2026-10-31T12:00:00Z', author: 1 },
  // 01:00 UTC on the 1st is 22:00 on 31 October in São Paulo (UTC−3).
  { title: 'Gamma', status: 'published', views: 30, price: '3.00', published_at: '2026-11-01T01:00:00Z', author: 2 },
  { title: 'Delta', status: 'draft', views: 40, price: '4.00', published_at: '2026-11-01T12:00:00Z', author: 2 },
  { title: 'Epsilon', status: 'draft', views: 50, price: null, published_at: '2026-11-03T12:00:00Z', author: null },
] as const;

export async function openInsightsFixture(env: Record<string, string> = {}): Promise<InsightsFixture> {
  const t = await createTestApp(env);
  const admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'authors', fields: [{ field: 'name', type: 'string' }] }).expect(200);
  await t.request
    .post('/collections')
    .set(auth(admin))
    .send({
      collection: 'articles',
      fields: [
        { field: 'title', type: 'string' },
        { field: 'status', type: 'string' },
        { field: 'views', type: 'integer' },
        { field: 'price', type: 'decimal' },
        { field: 'published_at', type: 'timestamp' },
        { field: 'author', type: 'integer' },
      ],
    })
    .expect(200);
  await t.request.post('/relations').set(auth(admin)).send({ collection: 'articles', field: 'author', related_collection: 'authors' }).expect(200);
  await t.request.post('/items/authors').set(auth(admin)).send([{ name: 'Ana' }, { name: 'Bruno' }]).expect(200);
  await t.request.post('/items/articles').set(auth(admin)).send(ARTICLES).expect(200);

  return {
    t,
    admin,
    auth,
    async dashboard(panels) {
      const id = (await t.request.post('/dashboards').set(auth(admin)).send({ name: 'Numbers' }).expect(200)).body.data.id as string;
      const ids: string[] = [];
      for (const [index, panel] of panels.entries()) {
        const body = { dashboard: id, position_x: 1, position_y: 1 + index * 4, width: 6, height: 4, ...panel };
        ids.push((await t.request.post('/panels').set(auth(admin)).send(body).expect(200)).body.data.id as string);
      }
      return { id, panels: ids };
    },
    async data(id, token, query = {}) {
      const response = await t.request.get(`/dashboards/${id}/data`).query(query).set(auth(token)).expect(200);
      return response.body.data;
    },
    async userWithPermissions(name, permissions) {
      const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: true }).expect(200)).body.data.id;
      for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
      const email = `${name.toLowerCase()}@example.com`;
      await t.request.post('/users').set(auth(admin)).send({ email, password: 'insights-password-1', role, status: 'active' }).expect(200);
      return t.login(email, 'insights-password-1');
    },
  };
}
