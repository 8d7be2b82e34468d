import { sql, type Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { NO_STATEMENT_TIMEOUT } from '../database/no-statement-timeout.ts';
import { DataLossError, SchemaHashMismatchError } from '../errors.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import { requireSchemaWrite } from '../services/schema/access.ts';
import type { ServiceContext } from '../services/service-context.ts';
import { trackSchemaChanges } from '../services/schema/schema-change.ts';
import { applyConfigSteps } from './apply-config.ts';
import { applySchemaSteps } from './apply-schema.ts';
import { dataLossSteps, type PlanStep } from './plan.ts';
import type { SnapshotDocument } from './types.ts';
import { SnapshotPlanner, type InternalPlan, type PlanOptions, type PlanResult, type SnapshotReadHost } from './snapshot-planner.ts';

/** What the snapshot service needs of the process: a database, the schema cache, and service contexts. */
export interface SnapshotHost extends SnapshotReadHost {
  schemaCache: SchemaCache;
  servicesContext(accountability: Accountability, db?: Kysely<any>): ServiceContext;
}

/** Options of an apply. */
export interface ApplyOptions extends PlanOptions {
  allowDataLoss?: boolean;
  dryRun?: boolean;
  /** The hash the plan was made against (HTTP): refused when the database has changed since. */
  expectedHash?: string;
  /** Called after each executed step. */
  onProgress?: (step: PlanStep, done: number, total: number) => void;
  /** Runs inside the transaction after every step (tests use it to fail an apply at its very end). */
  beforeCommit?: (trx: Kysely<any>) => Promise<void>;
}

/**
 * Configuration as code: the database as a snapshot and the plan from the database to a snapshot
 * (SnapshotPlanner), and the plan applied in ONE transaction. Administrators only. Secrets leave as
 * `${env:NAME}` references and come back from `env`.
 */
export class SnapshotService extends SnapshotPlanner {
  readonly #host: SnapshotHost;

  constructor(host: SnapshotHost, accountability: Accountability, env: NodeJS.ProcessEnv) {
    super(host, accountability, env);
    this.#host = host;
  }

  /**
   * Applies `desired` in one transaction: the plan is made inside it (under an advisory lock, so two
   * applies never interleave), refused when it loses data without `allowDataLoss` or when the database
   * no longer has `expectedHash`, then executed; any failure rolls everything back, DDL included.
   */
  async apply(desired: SnapshotDocument, options: ApplyOptions = {}): Promise<PlanResult & { applied: boolean }> {
    requireSchemaWrite(this.accountability);
    try {
      return await this.#host.db.transaction().execute(async (trx) => {
        // An apply may add indexes to or rewrite large tables: DB_STATEMENT_TIMEOUT is for requests, not this.
        await sql.raw(NO_STATEMENT_TIMEOUT).execute(trx);
        await sql`select pg_advisory_xact_lock(hashtext('tessera:schema-apply'))`.execute(trx);
        const result = await this.planAgainst(trx, desired, options, !options.dryRun);
        // The services the steps go through patch the overview the plan read instead of reading it all per step.
        trackSchemaChanges(trx, result.state.schema);
        if (options.expectedHash && options.expectedHash !== result.hash) {
          throw new SchemaHashMismatchError('The database has changed since this diff was made. Please generate a new diff and try again.', { hash: result.hash });
        }
        const losing = dataLossSteps(result.plan);
        if (losing.length > 0 && !options.allowDataLoss) {
          throw new DataLossError(`Refusing steps that lose data (allow them with --allow-data-loss):\n${losing.map((step) => `  - ${step.group}: ${step.dataLoss!.message}`).join('\n')}`, {
            steps: losing.map((step) => ({ kind: step.kind, name: step.name, message: step.dataLoss!.message, count: step.dataLoss!.count })),
          });
        }
        if (options.dryRun || result.plan.steps.length === 0) return { plan: result.plan, hash: result.hash, applied: false };
        await this.#execute(trx, result, options);
        return { plan: result.plan, hash: result.hash, applied: true };
      });
    } finally {
      this.#host.schemaCache.invalidate();
    }
  }

  async #execute(trx: Kysely<any>, { plan, state, resolved }: InternalPlan, options: ApplyOptions): Promise<void> {
    const total = plan.steps.length;
    let done = 0;
    const progress = (step: PlanStep) => options.onProgress?.(step, ++done, total);
    const context = this.#host.servicesContext(this.accountability, trx);
    const schemaKinds = new Set(['collection', 'field', 'relation']);
    const schemaSteps = plan.steps.filter((step) => schemaKinds.has(step.kind));
    if (schemaSteps.length > 0) await applySchemaSteps(context, this.#host.schemaCache, schemaSteps, state.document, resolved, progress);
    await applyConfigSteps(trx, plan.steps.filter((step) => !schemaKinds.has(step.kind)), state, resolved, progress);
    await options.beforeCommit?.(trx);
  }
}
