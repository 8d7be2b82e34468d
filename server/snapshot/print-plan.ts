import type { Plan, PlanStep } from './plan.ts';

const SYMBOL = { create: '+', update: '~', delete: '-' } as const;
const VERB = { create: 'create', update: 'change', delete: 'drop' } as const;
const NOUN: Readonly<Record<string, string>> = {
  collection: 'collection',
  field: 'field',
  relation: 'relation',
  roles: 'role',
  permissions: 'permission',
  presets: 'preset',
  flows: 'flow',
  operations: 'operation',
  dashboards: 'dashboard',
  panels: 'panel',
  webhooks: 'webhook',
  translations: 'translation',
  folders: 'folder',
  extensions: 'extension',
  settings: 'settings',
};

/** A value in one line, long ones cut. */
function show(value: unknown): string {
  const text = value === undefined ? 'null' : typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function stepLines(step: PlanStep): string[] {
  const lines = [`  ${SYMBOL[step.action]} ${VERB[step.action]} ${NOUN[step.kind] ?? step.kind} ${step.name}`];
  if (step.action === 'update') for (const change of step.changes) lines.push(`      ${change.path}: ${show(change.from)} → ${show(change.to)}`);
  if (step.dataLoss) lines.push(`      ! DATA LOSS: ${step.dataLoss.message}`);
  return lines;
}

/** One line counting a plan's steps: `3 to create, 1 to change, 1 to drop (1 loses data)`. */
export function summarizePlan(plan: Plan): string {
  if (plan.steps.length === 0) return 'In sync: nothing to change.';
  const count = (action: PlanStep['action']) => plan.steps.filter((step) => step.action === action).length;
  const losing = plan.steps.filter((step) => step.dataLoss).length;
  return `${count('create')} to create, ${count('update')} to change, ${count('delete')} to drop${losing ? ` (${losing} ${losing === 1 ? 'loses' : 'lose'} data)` : ''}.`;
}

/** The plan as text, grouped by collection, role or configuration kind; ends with the summary. */
export function formatPlan(plan: Plan): string {
  const groups = new Map<string, PlanStep[]>();
  for (const step of plan.steps) groups.set(step.group, [...(groups.get(step.group) ?? []), step]);
  const lines: string[] = [];
  for (const [group, steps] of groups) lines.push(group, ...steps.flatMap(stepLines));
  if (plan.unresolved.length > 0) lines.push('', `Not set, compared as unknown: ${plan.unresolved.join(', ')}`);
  for (const warning of plan.warnings ?? []) lines.push('', `Warning: ${warning}`);
  if (lines.length > 0) lines.push('');
  lines.push(summarizePlan(plan));
  return lines.join('\n');
}
