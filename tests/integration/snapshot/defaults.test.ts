import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('column defaults through snapshots', () => {
  let source: TestApp;
  let target: TestApp;
  const auth = { source: {} as Record<string, string>, target: {} as Record<string, string> };
  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
    auth.source = { Authorization: `Bearer ${await source.login()}` };
    auth.target = { Authorization: `Bearer ${await target.login()}` };
    await source.request
      .post('/collections')
      .set(auth.source)
      .send({
        collection: 'things',
        fields: [
          { field: 'price', type: 'decimal', schema: { default_value: 1.5, numeric_precision: 10, numeric_scale: 2 } },
          { field: 'big', type: 'bigInteger', schema: { default_value: 12 } },
          { field: 'ratio', type: 'float', schema: { default_value: 0.25 } },
          { field: 'flag', type: 'boolean', schema: { default_value: true } },
          { field: 'label', type: 'string', schema: { default_value: "it's" } },
          { field: 'born', type: 'date', schema: { default_value: 'CURRENT_TIMESTAMP' } },
          { field: 'tags', type: 'csv', meta: { special: ['cast-csv'] }, schema: { default_value: 'a,b' } },
          { field: 'doc', type: 'json', schema: { default_value: { a: 1 } } },
          { field: 'made', type: 'timestamp', schema: { default_value: 'CURRENT_TIMESTAMP', is_nullable: false } },
        ],
      })
      .expect(200);
  });
  afterAll(() => Promise.all([source.close(), target.close()]));

  it('keeps every default, clock defaults included, from one database to another', async () => {
    const snapshot = (await source.request.get('/schema/snapshot').set(auth.source).expect(200)).body.data;
    const defaults = Object.fromEntries(snapshot.fields.filter((f: { collection: string }) => f.collection === 'things').map((f: { field: string; schema: { default_value: unknown } }) => [f.field, f.schema.default_value]));
    expect(defaults).toMatchObject({ big: 12, ratio: 0.25, flag: true, label: "it's", born: 'CURRENT_TIMESTAMP', tags: 'a,b', doc: { a: 1 }, made: 'CURRENT_TIMESTAMP' });

    const diff = (await target.request.post('/schema/diff').set(auth.target).send(snapshot).expect(200)).body.data;
    await target.request.post('/schema/apply').set(auth.target).send(diff).expect(204);
    await target.request.post('/schema/diff').set(auth.target).send(snapshot).expect(204);

    const created = await target.request.post('/items/things').set(auth.target).send({}).expect(200);
    expect(created.body.data).toMatchObject({ big: '12', ratio: 0.25, flag: true, label: "it's", tags: ['a', 'b'], doc: { a: 1 } });
    expect(Date.now() - Date.parse(created.body.data.made)).toBeLessThan(60_000);
    expect(created.body.data.born).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('treats a decimal default written as a number in a file as the same default', async () => {
    const snapshot = (await source.request.get('/schema/snapshot').set(auth.source).expect(200)).body.data;
    for (const field of snapshot.fields) if (field.collection === 'things' && field.field === 'price') field.schema.default_value = 1.5;
    await source.request.post('/schema/diff').set(auth.source).send(snapshot).expect(204);
  });
});
