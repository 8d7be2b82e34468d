import { isTesseraError } from '../../server/errors.ts';
import { loadSnapshot } from '../../server/snapshot/load-snapshot.ts';
import { ONLY_CHOICES } from '../../server/snapshot/plan.ts';
import { formatPlan } from '../../server/snapshot/print-plan.ts';
import { ExitError, UsageError } from '../errors.ts';
import { DEFAULT_SNAPSHOT_FOLDER, withSnapshotPlanner } from '../snapshot-planner.ts';

/** Exit codes of `tessera diff`: a CI gate. */
export const DIFF_EXIT = { inSync: 0, drift: 1, error: 2 } as const;

/** Parses `--only a,b` into known section names. */
export function parseOnly(value: string | undefined): string[] {
  if (!value) return [];
  const choices = value.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = choices.filter((choice) => !Object.hasOwn(ONLY_CHOICES, choice));
  if (unknown.length > 0) throw new UsageError(`--only: unknown section ${unknown.join(', ')}; use: ${Object.keys(ONLY_CHOICES).join(', ')}.`);
  return choices;
}

/** Options of `tessera diff`. */
export interface DiffOptions {
  from?: string;
  json?: boolean;
  only?: string;
}

/** `tessera diff`: prints the plan from the database to the snapshot; exit 0 in sync, 1 drift, 2 error. */
export async function runDiff(options: DiffOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let drift: boolean;
  try {
    const only = parseOnly(options.only);
    const desired = loadSnapshot(options.from ?? DEFAULT_SNAPSHOT_FOLDER);
    const { plan, hash } = await withSnapshotPlanner(env, (planner) => planner.plan(desired, { only }));
    if (options.json) process.stdout.write(`${JSON.stringify({ hash, in_sync: plan.steps.length === 0, steps: plan.steps, unresolved: plan.unresolved, warnings: plan.warnings ?? [] }, null, 2)}\n`);
    else process.stdout.write(`${formatPlan(plan)}\n`);
    drift = plan.steps.length > 0;
  } catch (error) {
    // Every failure is exit 2, so CI tells "the database drifted" (1) from "diff could not run".
    if (error instanceof ExitError) throw error;
    const message = error instanceof UsageError ? `error: ${error.message}` : isTesseraError(error) || error instanceof Error ? error.message : String(error);
    throw new ExitError(DIFF_EXIT.error, message);
  }
  if (drift) throw new ExitError(DIFF_EXIT.drift);
}
