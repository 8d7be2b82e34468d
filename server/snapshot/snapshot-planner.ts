import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { requireSchemaWrite } from '../services/schema/access.ts';
import { diffDocuments } from './diff.ts';
import { notInstalledWarnings, type ExtensionName } from './extension-flags.ts';
import { measureDataLoss } from './data-loss.ts';
import { selectSteps, type Plan } from './plan.ts';
import { readDatabaseState, type DatabaseState } from './read-snapshot.ts';
import { maskSecrets, resolveSecrets } from './secrets.ts';
import { sortKeysDeep } from './sort.ts';
import type { SnapshotDocument } from './types.ts';
import { adoptUnmanagedIndexes } from './unmanaged-indexes.ts';

/** What reading and planning need of the process: a database, and the extensions installed here. */
export interface SnapshotReadHost {
  db: Kysely<any>;
  /** The extensions installed here, to warn about those a snapshot names that are not (absent: no check). */
  installedExtensions?(): Promise<ExtensionName[]>;
}

/** Options of a plan. */
export interface PlanOptions {
  /** Sections to consider (plan.ts ONLY_CHOICES); empty: all. */
  only?: readonly string[];
}

/** A plan with the hash of the database state it was made against. */
export interface PlanResult {
  plan: Plan;
  hash: string;
}

/** A plan with the two documents it compared, as shown to a client (secrets as `${env:…}` references). */
export interface ShownPlan extends PlanResult {
  shown: { current: SnapshotDocument; desired: SnapshotDocument };
}

/** A plan with what apply needs to execute it: the database state it was made from and the resolved snapshot. */
export interface InternalPlan extends ShownPlan {
  state: DatabaseState;
  resolved: SnapshotDocument;
}

/** The hash of a (masked) database snapshot: it changes whenever the schema or configuration does. */
export function hashDocument(document: SnapshotDocument): string {
  return createHash('sha256').update(JSON.stringify(sortKeysDeep(document))).digest('hex');
}

/**
 * The read-only half of configuration as code: the database as a snapshot and the plan from the database
 * to a snapshot. Administrators only. It imports nothing of the services an apply writes through, so
 * `tessera diff` and `tessera snapshot` load none of them (snapshot-service.ts adds apply).
 */
export class SnapshotPlanner {
  protected readonly host: SnapshotReadHost;
  protected readonly accountability: Accountability;
  readonly #env: NodeJS.ProcessEnv;

  constructor(host: SnapshotReadHost, accountability: Accountability, env: NodeJS.ProcessEnv) {
    this.host = host;
    this.accountability = accountability;
    this.#env = env;
  }

  /** The database as a snapshot document, secrets replaced by references. */
  async read(): Promise<SnapshotDocument> {
    requireSchemaWrite(this.accountability);
    return maskSecrets((await readDatabaseState(this.host.db)).document);
  }

  /** The plan from the database to `desired` (references to unset variables compare as unknown), and the documents compared. */
  async plan(desired: SnapshotDocument, options: PlanOptions = {}): Promise<ShownPlan> {
    requireSchemaWrite(this.accountability);
    const { plan, hash, shown } = await this.planAgainst(this.host.db, desired, options, false);
    return { plan, hash, shown };
  }

  /** The plan from the state of `db` (a transaction, for apply) to `desired`; `strictSecrets` refuses references to unset variables. */
  protected async planAgainst(db: Kysely<any>, desired: SnapshotDocument, options: PlanOptions, strictSecrets: boolean): Promise<InternalPlan> {
    const state = await readDatabaseState(db);
    const { document: secretsResolved, missing } = resolveSecrets(desired, this.#env, { strict: strictSecrets });
    const resolved = adoptUnmanagedIndexes(secretsResolved, state.document);
    const shownCurrent = maskSecrets(state.document);
    const shownDesired = adoptUnmanagedIndexes(desired, state.document);
    let plan = diffDocuments({ current: state.document, desired: resolved, shownCurrent, shownDesired }, missing);
    plan = selectSteps(plan, options.only ?? []);
    plan = await measureDataLoss(db, plan, state.document, resolved);
    if (resolved.extensions && plan.steps.some((step) => step.kind === 'extensions') && this.host.installedExtensions) {
      const warnings = notInstalledWarnings(resolved.extensions, await this.host.installedExtensions());
      if (warnings.length > 0) plan = { ...plan, warnings };
    }
    return { plan, hash: hashDocument(shownCurrent), shown: { current: shownCurrent, desired: shownDesired }, state, resolved };
  }
}
