import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFolder } from '../../../server/snapshot/load-snapshot.ts';
import { renderSnapshot, writeSnapshot } from '../../../server/snapshot/serialize.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { EXAMPLE_FOLDER, readTree, snapshotService } from './snapshot-helpers.ts';

describe('the blog example applied to a fresh database', () => {
  let app: TestApp;
  const out = mkdtempSync(path.join(tmpdir(), 'tessera-snapshot-'));
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('applies, then snapshots byte-identical to the files it came from', async () => {
    const service = snapshotService(app);
    const result = await service.apply(loadSnapshotFolder(EXAMPLE_FOLDER));
    expect(result.applied).toBe(true);
    expect(result.plan.steps.length).toBeGreaterThan(30);

    writeSnapshot(out, await service.read(), 'yaml');
    const written = readTree(out);
    const example = readTree(EXAMPLE_FOLDER);
    expect([...written.keys()]).toEqual([...example.keys()]);
    for (const [file, text] of example) expect(written.get(file), file).toBe(text);
  });

  it('is idempotent: a second apply has no steps and changes nothing', async () => {
    const service = snapshotService(app);
    const before = await service.read();
    const again = await service.apply(loadSnapshotFolder(EXAMPLE_FOLDER));
    expect(again).toMatchObject({ applied: false, plan: { steps: [] } });
    expect((await service.plan(loadSnapshotFolder(EXAMPLE_FOLDER))).plan.steps).toEqual([]);
    expect(await service.read()).toEqual(before);
  });

  it('made a working schema: m2m, translations and the public role read published posts only', async () => {
    const token = await app.login();
    const auth = { Authorization: `Bearer ${token}` };
    await app.request.post('/items/languages').set(auth).send([{ code: 'en-US', name: 'English' }, { code: 'de-DE', name: 'Deutsch' }]).expect(200);
    const author = (await app.request.post('/items/authors').set(auth).send({ name: 'Ada', email: 'ada@example.com' }).expect(200)).body.data;
    const category = (await app.request.post('/items/categories').set(auth).send({ name: 'News', slug: 'news' }).expect(200)).body.data;
    await app.request
      .post('/items/posts')
      .set(auth)
      .send([
        { title: 'Hello', slug: 'hello', status: 'published', author: author.id, categories: [{ categories_id: category.id }], translations: [{ languages_code: 'de-DE', title: 'Hallo' }] },
        { title: 'Draft', slug: 'draft', author: author.id },
      ])
      .expect(200);
    const anonymous = await app.request.get('/items/posts').query({ fields: 'title,author.name,categories.categories_id.name,translations.title' }).expect(200);
    expect(anonymous.body.data).toEqual([{ title: 'Hello', author: { name: 'Ada' }, categories: [{ categories_id: { name: 'News' } }], translations: [{ title: 'Hallo' }] }]);
    const status = await app.request.get('/items/posts').query({ fields: 'status' });
    expect(status.status).toBe(403);
  });

  it('snapshot files are the same whatever the order rows were written in (sorted entries, sorted keys)', async () => {
    const service = snapshotService(app);
    const first = renderSnapshot(await service.read(), 'json');
    // Rewrite every permission row in reverse order: new ids, same content.
    const db = app.context.database.kysely();
    await db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('tessera_permissions').selectAll().orderBy('id', 'desc').execute();
      await trx.deleteFrom('tessera_permissions').execute();
      for (const { id: _id, ...row } of rows) {
        await trx.insertInto('tessera_permissions').values({ ...row, permissions: row.permissions && JSON.stringify(row.permissions), presets: row.presets && JSON.stringify(row.presets), validation: row.validation && JSON.stringify(row.validation) }).execute();
      }
    });
    expect(renderSnapshot(await service.read(), 'json')).toEqual(first);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from tessera_permissions`.execute(db);
    expect(rows[0]!.n).toBeGreaterThan(10);
  });
});
