/** The value at a dotted path (`$trigger.body.id`, `items.0.title`), undefined when absent. */
export function valueAt(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

type Filter = Record<string, unknown>;

function compare(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case '_eq': return actual === expected || (actual !== null && actual !== undefined && String(actual) === String(expected));
    case '_neq': return !compare('_eq', actual, expected);
    case '_in': return Array.isArray(expected) && expected.some((entry) => compare('_eq', actual, entry));
    case '_nin': return !compare('_in', actual, expected);
    case '_null': return (actual === null || actual === undefined) === (expected !== false && expected !== 'false');
    case '_nnull': return (actual !== null && actual !== undefined) === (expected !== false && expected !== 'false');
    case '_empty': return (actual === null || actual === undefined || actual === '' || (Array.isArray(actual) && actual.length === 0)) === (expected !== false);
    case '_nempty': return !compare('_empty', actual, expected);
    case '_gt': return Number(actual) > Number(expected);
    case '_gte': return Number(actual) >= Number(expected);
    case '_lt': return Number(actual) < Number(expected);
    case '_lte': return Number(actual) <= Number(expected);
    case '_contains': return typeof actual === 'string' ? actual.includes(String(expected)) : Array.isArray(actual) && actual.includes(expected);
    case '_ncontains': return !compare('_contains', actual, expected);
    case '_icontains': return typeof actual === 'string' && actual.toLowerCase().includes(String(expected).toLowerCase());
    case '_starts_with': return typeof actual === 'string' && actual.startsWith(String(expected));
    case '_ends_with': return typeof actual === 'string' && actual.endsWith(String(expected));
    default: throw new Error(`Unknown filter operator "${operator}".`);
  }
}

/** Whether `data` matches a Directus filter (`{ $trigger: { payload: { status: { _eq: 'x' } } } }`), evaluated in memory. */
export function matchesFilter(filter: unknown, data: unknown, path: string[] = []): boolean {
  if (!filter || typeof filter !== 'object') return true;
  return Object.entries(filter as Filter).every(([key, value]) => {
    if (key === '_and') return (value as unknown[]).every((entry) => matchesFilter(entry, data, path));
    if (key === '_or') return (value as unknown[]).some((entry) => matchesFilter(entry, data, path));
    if (key.startsWith('_')) return compare(key, path.length === 0 ? data : valueAt(data, path.join('.')), value);
    return matchesFilter(value, data, [...path, key]);
  });
}
