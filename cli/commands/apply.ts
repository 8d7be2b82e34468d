import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { migrateProjectLatest } from '../../server/database/project-migrations.ts';
import { installedExtensions } from '../../server/snapshot/extension-flags.ts';
import { loadSnapshot } from '../../server/snapshot/load-snapshot.ts';
import { dataLossSteps } from '../../server/snapshot/plan.ts';
import { formatPlan } from '../../server/snapshot/print-plan.ts';
import { SnapshotService } from '../../server/snapshot/snapshot-service.ts';
import { openSystemContext, type SystemContext } from '../context.ts';
import { CancelledError, ExitError, UsageError } from '../errors.ts';
import { askConfirm, canPrompt, startProgress } from '../prompts.ts';
import { announceSchemaChange } from '../running-server.ts';
import { parseOnly } from './diff.ts';
import { DEFAULT_SNAPSHOT_FOLDER } from '../snapshot-planner.ts';

/**
 * Opens the database, runs `work` with a snapshot service acting as the platform, and closes it again.
 * With `migrate`, pending system and project migrations run first (`apply --migrate` on a new database).
 */
export async function withSnapshotService<T>(
  env: NodeJS.ProcessEnv,
  work: (service: SnapshotService, context: SystemContext) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig(env);
  const context = await openSystemContext(config, { requireSchema: !options.migrate });
  try {
    const { app } = context;
    if (options.migrate) {
      await migrateLatest(app.database.orm);
      await migrateProjectLatest(app.database.kysely(), config.migrationsPath);
    }
    const host = { db: app.database.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext, installedExtensions: () => installedExtensions(config.extensions.path, config.extensions.projectDir) };
    return await work(new SnapshotService(host, systemAccountability(), env), context);
  } finally {
    await context.close();
  }
}

/** Options of `tessera apply`. */
export interface ApplyCommandOptions {
  from?: string;
  yes?: boolean;
  dryRun?: boolean;
  allowDataLoss?: boolean;
  only?: string;
  json?: boolean;
  /** Run pending migrations first (a new database). */
  migrate?: boolean;
}

/**
 * `tessera apply`: validates the snapshot, shows the plan, asks (unless --yes; without a terminal --yes
 * is required), then applies it in one transaction. The apply is made against the database state the
 * plan was shown for: if it changed in between, nothing is applied.
 */
export async function runApply(options: ApplyCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const only = parseOnly(options.only);
  if (options.migrate && options.dryRun) throw new UsageError('--dry-run changes nothing, so it cannot run migrations: drop --migrate, or run `tessera migrate` first.');
  const desired = loadSnapshot(options.from ?? DEFAULT_SNAPSHOT_FOLDER);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  await withSnapshotService(env, async (service, context) => {
    const { plan, hash } = await service.plan(desired, { only });
    if (!options.json) out(formatPlan(plan));
    if (plan.steps.length === 0) {
      if (options.json) out(JSON.stringify({ applied: false, steps: [] }));
      return;
    }
    const losing = dataLossSteps(plan);
    if (losing.length > 0 && !options.allowDataLoss) {
      throw new ExitError(1, `Refusing: ${losing.length} step(s) lose data (listed above). Re-run with --allow-data-loss to apply them.`);
    }
    if (options.dryRun) {
      if (options.json) out(JSON.stringify({ applied: false, dry_run: true, hash, steps: plan.steps }, null, 2));
      return;
    }
    if (!options.yes) {
      if (!canPrompt()) throw new UsageError('apply changes the database and there is no terminal to confirm on (CI or piped input): pass --yes to apply.');
      if (!(await askConfirm({ message: `Apply ${plan.steps.length} step(s)?`, fallback: false }))) throw new CancelledError();
    }
    const progress = startProgress('Applying');
    const result = await service
      .apply(desired, { only, allowDataLoss: options.allowDataLoss, expectedHash: hash, onProgress: (step, done, total) => progress.advance(done, total, `${step.action} ${step.name}`) })
      .catch((error: unknown) => {
        progress.stop('Apply failed; nothing was changed.');
        throw error;
      });
    progress.stop(`Applied ${result.plan.steps.length} step(s) in one transaction.`);
    const running = await announceSchemaChange(context);
    if (options.json) out(JSON.stringify({ applied: result.applied, hash: result.hash, steps: result.plan.steps, running_server: running }, null, 2));
    else if (running.message) out(running.message);
  }, { migrate: options.migrate });
}
