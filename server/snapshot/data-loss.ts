import { sql, type Kysely } from 'kysely';
import { fieldTypeTraits } from '../schema/field-type-table.ts';
import type { Plan, PlanStep } from './plan.ts';
import type { SnapshotDocument, SnapshotField } from './types.ts';

/** Type changes that keep every value (the new column holds whatever the old one did). */
const WIDENINGS: Readonly<Record<string, readonly string[]>> = {
  integer: ['bigInteger', 'float', 'decimal', 'string', 'text'],
  bigInteger: ['decimal', 'string', 'text'],
  float: ['string', 'text'],
  decimal: ['string', 'text'],
  string: ['text'],
  csv: ['text'],
  hash: ['string', 'text'],
  uuid: ['string', 'text'],
  boolean: ['string', 'text'],
  date: ['dateTime', 'timestamp', 'string', 'text'],
  dateTime: ['timestamp', 'string', 'text'],
  time: ['string', 'text'],
  timestamp: ['string', 'text'],
  json: ['text'],
};

/** True when changing `from` into `to` may lose or refuse values: another type family, a shorter length, less precision. */
export function narrows(from: SnapshotField, to: SnapshotField): boolean {
  if (from.type === 'alias' || to.type === 'alias') return false;
  if (from.type !== to.type) {
    if (!WIDENINGS[from.type]?.includes(to.type)) return true;
    if (to.type === 'string' && from.type !== 'integer') return (to.schema?.max_length ?? 255) < 255;
    return false;
  }
  const [a, b] = [from.schema!, to.schema!];
  const size = fieldTypeTraits(from.type).size;
  if (size === 'length') return (b.max_length ?? 255) < (a.max_length ?? 255);
  if (size === 'precision') {
    const integerDigits = (column: typeof a) => (column.numeric_precision ?? 10) - (column.numeric_scale ?? 5);
    return (b.numeric_scale ?? 5) < (a.numeric_scale ?? 5) || integerDigits(b) < integerDigits(a);
  }
  return false;
}

/** Types whose values are text: moving them into a shorter varchar loses only what is too long. */
const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'csv', 'hash']);

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

async function countRows(db: Kysely<any>, table: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

async function countValues(db: Kysely<any>, table: string, column: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(${sql.id(column)}) as n from ${sql.id(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Values longer than `length` characters: the ones a shorter varchar would refuse. */
async function countLongerThan(db: Kysely<any>, table: string, column: string, length: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.id(table)} where char_length(${sql.id(column)}::text) > ${length}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Marks the steps that destroy data, with the amount at stake: dropping a collection that has rows, a
 * field that has values, a narrowing type change of a field that has values, or a role users still have.
 */
export async function measureDataLoss(db: Kysely<any>, plan: Plan, current: SnapshotDocument, desired: SnapshotDocument): Promise<Plan> {
  const fields = new Map(current.fields.map((field) => [`${field.collection}.${field.field}`, field]));
  const desiredFields = new Map(desired.fields.map((field) => [`${field.collection}.${field.field}`, field]));
  const tables = new Set(current.collections.filter((collection) => collection.schema).map((collection) => collection.collection));
  const steps: PlanStep[] = [];
  for (const step of plan.steps) {
    let loss: PlanStep['dataLoss'];
    if (step.kind === 'collection' && step.action === 'delete' && tables.has(step.name)) {
      const rows = await countRows(db, step.name);
      if (rows > 0) loss = { count: rows, message: `drops collection ${step.name}: ${plural(rows, 'row', 'rows')}` };
    } else if (step.kind === 'field' && step.action !== 'create') {
      const field = fields.get(step.name);
      const target = desiredFields.get(step.name);
      const risky = field && field.type !== 'alias' && (step.action === 'delete' || (target && narrows(field, target)));
      if (risky && step.action !== 'delete' && target!.type === 'string' && TEXT_TYPES.has(field.type)) {
        // Text into a shorter varchar: only the values that do not fit are at stake.
        const length = target!.schema?.max_length ?? 255;
        const values = await countLongerThan(db, field.collection, field.field, length);
        if (values > 0) loss = { count: values, message: `narrows field ${field.field} (${describe(field)} → ${describe(target!)}): ${plural(values, 'value is', 'values are')} longer than ${length}` };
      } else if (risky) {
        const values = await countValues(db, field.collection, field.field);
        if (values > 0) {
          const what = step.action === 'delete' ? `drops field ${field.field}` : `narrows field ${field.field} (${describe(field)} → ${describe(target!)})`;
          loss = { count: values, message: `${what}: ${plural(values, 'non-null value', 'non-null values')}` };
        }
      }
    } else if (step.kind === 'roles' && step.action === 'delete') {
      const role = await db.selectFrom('tessera_roles').select('id').where('name', '=', step.name).executeTakeFirst();
      const users = role ? Number((await db.selectFrom('tessera_users').select((eb) => eb.fn.countAll().as('n')).where('role', '=', role.id).executeTakeFirst())?.n ?? 0) : 0;
      if (users > 0) loss = { count: users, message: `drops role ${step.name}: ${plural(users, 'user loses', 'users lose')} their role` };
    }
    steps.push(loss ? { ...step, dataLoss: loss } : step);
  }
  return { ...plan, steps };
}

function describe(field: SnapshotField): string {
  const size = fieldTypeTraits(field.type).size;
  if (size === 'length') return `${field.type}(${field.schema?.max_length ?? 255})`;
  if (size === 'precision') return `${field.type}(${field.schema?.numeric_precision ?? 10},${field.schema?.numeric_scale ?? 5})`;
  return field.type;
}
