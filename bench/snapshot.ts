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
import { generatedSnapshot } from './generated-snapshot.ts';
import { createBenchDatabase } from './server.ts';

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
