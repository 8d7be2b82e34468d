import { InvalidPayloadError } from './errors.ts';

/**
 * Names every plain object answers without holding them (`constructor`, `toString`, `__proto__` …): looked
 * up with a client's key in an ordinary object or lookup table, they find Object.prototype's members.
 */
const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether `name` is one of Object.prototype's members. */
export function isInheritedName(name: string): boolean {
  return INHERITED_NAMES.has(name);
}

/** `record[key]` when the record holds `key` itself, never a member it inherits. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Refuses a payload naming an Object.prototype member as a key, at any depth, with a 400 naming its path.
 * yup (every validator of system payloads) looks a payload's keys up in its plain-object field maps, so
 * `{"constructor": …}` finds `Object` there and fails with a TypeError; and such keys mean nothing in
 * Tessera's payloads. Item payloads do not pass here: their keys are checked against the collection's
 * null-prototype field map.
 */
export function refuseInheritedNames(value: unknown, path = ''): void {
  const pending: Array<[unknown, string, number]> = [[value, path, 0]];
  while (pending.length > 0) {
    const [item, at, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object' || depth > 64) continue;
    if (Array.isArray(item)) {
      item.forEach((element, index) => pending.push([element, `${at}[${index}]`, depth + 1]));
      continue;
    }
    for (const key of Object.keys(item)) {
      const field = at ? `${at}.${key}` : key;
      if (INHERITED_NAMES.has(key)) throw new InvalidPayloadError(`"${field}": "${key}" is not an accepted name.`, { field });
      pending.push([(item as Record<string, unknown>)[key], field, depth + 1]);
    }
  }
}
