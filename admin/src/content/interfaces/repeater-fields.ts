import type { FieldInfo } from '../schema/types.ts';

/** One field of a repeater row, as Directus stores it in the `list` interface's `options.fields`. */
export interface RepeaterField {
  field: string;
  name?: string;
  type: string;
  meta?: { interface?: string | null; options?: Record<string, unknown> | null; width?: 'half' | 'full' | null; required?: boolean } | null;
}

/** Types a repeater field may have, with the interface each starts with. */
export const REPEATER_TYPES: Readonly<Record<string, string>> = {
  string: 'input',
  text: 'input-multiline',
  integer: 'input',
  float: 'input',
  boolean: 'boolean',
  dateTime: 'datetime',
  json: 'input-json',
};

/** The repeater's fields from its options (rows without a name left out). */
export function repeaterFields(options: Record<string, unknown>): RepeaterField[] {
  const fields = Array.isArray(options.fields) ? options.fields : [];
  return fields.filter((entry): entry is RepeaterField => Boolean(entry) && typeof entry === 'object' && typeof (entry as RepeaterField).field === 'string' && (entry as RepeaterField).field !== '');
}

/** A repeater field as a field of the item form, so the same interfaces edit it. */
export function asFieldInfo(collection: string, entry: RepeaterField): FieldInfo {
  return {
    collection,
    field: entry.field,
    type: entry.type || 'string',
    meta: {
      special: null,
      interface: entry.meta?.interface ?? REPEATER_TYPES[entry.type] ?? 'input',
      options: entry.meta?.options ?? null,
      display: null,
      display_options: null,
      readonly: false,
      hidden: false,
      sort: null,
      width: entry.meta?.width ?? 'full',
      group: null,
      translations: null,
      note: null,
      conditions: null,
      required: entry.meta?.required ?? false,
    },
    schema: null,
  };
}
