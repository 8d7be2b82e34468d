/**
 * Measures configuration as code on a generated project (`node bench/snapshot.ts [collections]`):
 * applying a snapshot of N collections (default 50: 8 fields each, an m2o to the previous collection,
 * read permissions for an Editor role) to an empty, migrated database, then diffing the same snapshot
 * against the up-to-date database. Prints milliseconds per phase; docs/performance.md keeps the numbers.
 */
import { systemAccountability } from '../server/auth/accountability.ts';
import { createAppContext } from '../server/app-context.ts';
import { loadConfig } from '../server/config/index.ts';
import { openDatabase } from '../server/database/database.ts';
import { migrateLatest } from '../server/database/migrations.ts';
import { createLogger } from '../server/logger.ts';
import { bootstrapDatabase } from '../server/services/bootstrap.ts';
import { parseSnapshotDocument } from '../server/snapshot/load-snapshot.ts';
import { SnapshotService } from '../server/snapshot/snapshot-service.ts';
import { createBenchDatabase } from './server.ts';

/** A snapshot document of `count` collections. */
export function generatedSnapshot(count: number): Record<string, unknown> {
  const collections = [];
  const fields = [];
  const relations = [];
  const permissions = [];
  for (let index = 1; index <= count; index++) {
    const name = `bench_${String(index).padStart(3, '0')}`;
    collections.push({ collection: name, meta: { icon: 'box', note: `Generated collection ${index}` }, schema: { name } });
    fields.push(
      { collection: name, field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true } },
      { collection: name, field: 'title', type: 'string', meta: { interface: 'input', required: true }, schema: { is_nullable: false } },
      { collection: name, field: 'slug', type: 'string', meta: {}, schema: { is_unique: true, max_length: 120 } },
      { collection: name, field: 'body', type: 'text', meta: {}, schema: {} },
      { collection: name, field: 'price', type: 'decimal', meta: {}, schema: { numeric_precision: 12, numeric_scale: 2 } },
      { collection: name, field: 'published', type: 'boolean', meta: {}, schema: { default_value: false } },
      { collection: name, field: 'published_on', type: 'timestamp', meta: {}, schema: {} },
      { collection: name, field: 'data', type: 'json', meta: {}, schema: {} },
    );
    if (index > 1) {
      const previous = `bench_${String(index - 1).padStart(3, '0')}`;
      fields.push({ collection: name, field: 'parent', type: 'integer', meta: { special: ['m2o'] }, schema: {} });
      fields.push({ collection: previous, field: 'children', type: 'alias', meta: { special: ['o2m'] } });
      relations.push({ collection: name, field: 'parent', related_collection: previous, meta: { one_field: 'children' }, schema: { on_delete: 'SET NULL' } });
    }
    permissions.push({ role: 'Editor', collection: name, action: 'read', fields: ['*'] }, { role: null, collection: name, action: 'read', fields: ['id', 'title'], permissions: { published: { _eq: true } } });
  }
  return {
    version: 2,
    vendor: 'postgres',
    collections,
    fields,
    relations,
    roles: [
      { name: 'Administrator', icon: 'verified', description: 'Full access to every collection and setting.', admin_access: true, app_access: true },
      { name: 'Editor', app_access: true },
    ],
    permissions,
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 50);
  const database = await createBenchDatabase();
  const config = loadConfig({ DB_URL: database.url, LOG_LEVEL: 'warn', SECRET: 'bench-secret-that-is-long-enough-0123456789' });
  const logger = createLogger(config.log);
  const db = await openDatabase(config, logger);
  const app = createAppContext(config as typeof config & { secret: string }, logger, db);
  try {
    await migrateLatest(db.orm);
    await bootstrapDatabase(app.servicesContext(systemAccountability()));
    const service = new SnapshotService({ db: db.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext }, systemAccountability(), {});
    const document = parseSnapshotDocument(generatedSnapshot(count), 'generated');
    let started = performance.now();
    const applied = await service.apply(document);
    const applyMs = performance.now() - started;
    const diffs: number[] = [];
    for (let run = 0; run < 5; run++) {
      started = performance.now();
      const { plan } = await service.plan(document);
      diffs.push(performance.now() - started);
      if (plan.steps.length > 0) throw new Error(`diff after apply is not empty: ${plan.steps.length} steps`);
    }
    diffs.sort((a, b) => a - b);
    const result = { collections: count, steps: applied.plan.steps.length, apply_ms: Math.round(applyMs), diff_ms_median: Math.round(diffs[2]!), diff_ms_min: Math.round(diffs[0]!) };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await app.dispose();
    await db.close();
    await database.drop();
  }
}

await main();
