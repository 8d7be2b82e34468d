import type { ConfigSection } from './types.ts';

/** What a step does. */
export type StepAction = 'create' | 'update' | 'delete';

/** What a step changes. */
export type StepKind = 'collection' | 'field' | 'relation' | ConfigSection | 'settings';

/** One spelled-out difference: `schema.max_length: 255 → 100`. Secrets show as their `${env:…}` reference. */
export interface PlanChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** One step of a plan. */
export interface PlanStep {
  kind: StepKind;
  action: StepAction;
  /** Heading the step is printed under: `collection posts`, `role Editor`, `public role`, `flows` … */
  group: string;
  /** What the step is about: `posts`, `posts.body`, `read posts` … */
  name: string;
  changes: PlanChange[];
  /** Set when the step destroys data; apply refuses it without allow-data-loss. */
  dataLoss?: { count: number; message: string };
  /** The row key of configuration steps. */
  key?: string;
}

/** The difference between the database and a snapshot. */
export interface Plan {
  steps: PlanStep[];
  /** `${env:NAME}` references whose variable is not set (compared as unknown). */
  unresolved: string[];
  /** What the plan does that may not be what was meant (an extension that is not installed here). */
  warnings?: string[];
}

/** Sections `--only` accepts, and what each selects. */
export const ONLY_CHOICES: Readonly<Record<string, readonly StepKind[]>> = {
  schema: ['collection', 'field', 'relation'],
  collections: ['collection', 'field', 'relation'],
  access: ['roles', 'permissions'],
  roles: ['roles'],
  permissions: ['permissions'],
  presets: ['presets'],
  flows: ['flows', 'operations'],
  dashboards: ['dashboards', 'panels'],
  webhooks: ['webhooks'],
  translations: ['translations'],
  settings: ['settings'],
  folders: ['folders'],
  extensions: ['extensions'],
};

/** The steps `only` selects (all of them when `only` is empty). */
export function selectSteps(plan: Plan, only: readonly string[]): Plan {
  if (only.length === 0) return plan;
  const kinds = new Set(only.flatMap((choice) => ONLY_CHOICES[choice] ?? []));
  return { ...plan, steps: plan.steps.filter((step) => kinds.has(step.kind)) };
}

/** Steps that lose data. */
export function dataLossSteps(plan: Plan): PlanStep[] {
  return plan.steps.filter((step) => step.dataLoss);
}
