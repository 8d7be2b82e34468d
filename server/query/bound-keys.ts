import { randomBytes } from 'node:crypto';
import type { FieldType } from '../schema/types.ts';
import { castValue } from './cast-value.ts';

/**
 * How a key list reads in a query's JSON (compiled-reads.ts keys reads by it): the same for every list, so
 * reads of different items share one compiled statement, and unguessable, so no query a caller writes
 * serialises like it (a read with a literal list must never find a statement compiled for bound keys).
 */
const PLACEHOLDER = `\u0000keys:${randomBytes(16).toString('hex')}`;

/**
 * The keys of a read by key (`_in` on the primary key, item-keys.ts), bound when the statement runs rather
 * than when it is compiled: the statement text, and so its compiled form, is the same for any keys.
 */
export class BoundKeys {
  readonly values: readonly (string | number)[];

  constructor(values: readonly (string | number)[]) {
    this.values = values;
  }

  toJSON(): string {
    return PLACEHOLDER;
  }
}

/** The parameter a BoundKeys compiles to: which list, and the field type and name its values are cast for. */
export class KeyParameter {
  readonly keys: BoundKeys;
  readonly type: FieldType;
  readonly label: string;

  constructor(keys: BoundKeys, type: FieldType, label: string) {
    this.keys = keys;
    this.type = type;
    this.label = label;
  }
}

/** Every BoundKeys in a filter, in the order JSON.stringify meets them (so structurally equal queries list theirs alike). */
export function boundKeysIn(filter: unknown): BoundKeys[] {
  const found: BoundKeys[] = [];
  const visit = (value: unknown): void => {
    if (value instanceof BoundKeys) found.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key]);
  };
  visit(filter);
  return found;
}

/**
 * The parameters with each key list's values in place: `compiledWith` are the lists of the query the
 * statement was compiled for, `current` those of the read being run (the same count, in the same order).
 */
export function bindKeys(parameters: readonly unknown[], compiledWith: readonly BoundKeys[], current: readonly BoundKeys[]): unknown[] {
  return parameters.map((parameter) => {
    if (!(parameter instanceof KeyParameter)) return parameter;
    const index = compiledWith.indexOf(parameter.keys);
    if (index < 0 || !current[index]) throw new Error('A statement compiled for bound keys ran without them.');
    return current[index].values.flatMap((key) => castValue(key, parameter.type, parameter.label) ?? []);
  });
}
