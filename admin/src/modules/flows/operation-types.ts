/** One option of an operation's form: how it is edited and stored in operations.options. */
export interface OptionSpec {
  name: string;
  kind: 'text' | 'textarea' | 'json' | 'number' | 'select' | 'boolean' | 'code';
  choices?: readonly string[];
  required?: boolean;
}

const permissions: OptionSpec = { name: 'permissions', kind: 'select', choices: ['$trigger', '$public', '$full'] };
const collection: OptionSpec = { name: 'collection', kind: 'text', required: true };
const key: OptionSpec = { name: 'key', kind: 'text' };
const query: OptionSpec = { name: 'query', kind: 'json' };
const payload: OptionSpec = { name: 'payload', kind: 'json' };

/** The options each operation type takes (Directus 10 names), in form order. */
export const OPERATION_TYPES: Readonly<Record<string, readonly OptionSpec[]>> = {
  condition: [{ name: 'filter', kind: 'json', required: true }],
  exec: [{ name: 'code', kind: 'code', required: true }],
  'item-create': [collection, permissions, payload],
  'item-read': [collection, permissions, key, query],
  'item-update': [collection, permissions, key, query, payload],
  'item-delete': [collection, permissions, key, query],
  log: [{ name: 'message', kind: 'textarea', required: true }],
  mail: [
    { name: 'to', kind: 'text', required: true },
    { name: 'subject', kind: 'text', required: true },
    { name: 'type', kind: 'select', choices: ['markdown', 'wysiwyg', 'template'] },
    { name: 'body', kind: 'textarea' },
  ],
  notification: [
    { name: 'recipient', kind: 'text', required: true },
    { name: 'subject', kind: 'text', required: true },
    { name: 'message', kind: 'textarea' },
    permissions,
  ],
  request: [
    { name: 'method', kind: 'select', choices: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], required: true },
    { name: 'url', kind: 'text', required: true },
    { name: 'headers', kind: 'json' },
    { name: 'body', kind: 'textarea' },
  ],
  sleep: [{ name: 'milliseconds', kind: 'number', required: true }],
  transform: [{ name: 'json', kind: 'json', required: true }],
  trigger: [
    { name: 'flow', kind: 'text', required: true },
    { name: 'payload', kind: 'json' },
    { name: 'iterationMode', kind: 'select', choices: ['serial', 'batch', 'parallel'] },
  ],
  'json-web-token': [
    { name: 'operation', kind: 'select', choices: ['sign', 'verify', 'decode'], required: true },
    { name: 'payload', kind: 'json' },
    { name: 'token', kind: 'text' },
    { name: 'secret', kind: 'text' },
    { name: 'options', kind: 'json' },
  ],
};

/** Form values (JSON options as text) → the options object the API stores; throws naming the option whose JSON does not parse. */
export function toOperationOptions(type: string, values: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const spec of OPERATION_TYPES[type] ?? []) {
    const value = values[spec.name];
    if (value === undefined || value === null || value === '') continue;
    if (spec.kind === 'json') {
      try {
        options[spec.name] = JSON.parse(String(value));
      } catch {
        throw new OptionJsonError(spec.name);
      }
    } else options[spec.name] = value;
  }
  return options;
}

/** The stored options → form values (JSON options as indented text). */
export function toOptionValues(type: string, options: Record<string, unknown> | null): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const spec of OPERATION_TYPES[type] ?? []) {
    const value = options?.[spec.name];
    if (value === undefined) continue;
    values[spec.name] = spec.kind === 'json' ? JSON.stringify(value, null, 2) : value;
  }
  return values;
}

/** An option's text is not JSON. */
export class OptionJsonError extends Error {
  constructor(readonly option: string) {
    super(`"${option}" is not valid JSON.`);
  }
}

/** An operation row as the API returns it. */
export interface OperationRecord {
  id: string;
  key: string;
  name: string | null;
  type: string;
  options: Record<string, unknown> | null;
  resolve: string | null;
  reject: string | null;
  position_x: number;
  position_y: number;
  flow: string;
}

/** One node of the chain as drawn: the operation and where its resolve and reject paths lead. */
export interface ChainNode {
  operation: OperationRecord;
  resolve: ChainNode | null;
  reject: ChainNode | null;
}

/**
 * The chain from the flow's first operation as a tree (each operation has one resolve and one reject
 * successor). An operation met twice (a cycle) is not expanded again; operations no path reaches are
 * returned apart so they stay visible and editable.
 */
export function buildChain(first: string | null, operations: OperationRecord[]): { root: ChainNode | null; detached: OperationRecord[] } {
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const seen = new Set<string>();
  const node = (id: string | null): ChainNode | null => {
    const operation = id ? byId.get(id) : undefined;
    if (!operation || seen.has(operation.id)) return null;
    seen.add(operation.id);
    return { operation, resolve: node(operation.resolve), reject: node(operation.reject) };
  };
  const root = node(first);
  return { root, detached: operations.filter((operation) => !seen.has(operation.id)) };
}
