import { choicesOf } from './interfaces/dropdown.tsx';
import { relatedTarget } from './interfaces/related.ts';
import type { SchemaState } from './schema/schema-context.tsx';
import type { FieldInfo } from './schema/types.ts';

/** A field's value as plain text: the choice text of a dropdown (or of its `labels` display) for its value, else the value. */
export function valueText(field: FieldInfo | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((entry) => valueText(field, entry)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  const shown = field?.meta?.display_options?.choices;
  const choices = choicesOf({ choices: Array.isArray(shown) ? shown : field?.meta?.options?.choices });
  return choices.find((choice) => String(choice.value) === String(value))?.label ?? String(value);
}

/** The field a template path names in `collection`, through many-to-one relations (`author.country.name`). */
export function fieldAtPath(schema: SchemaState, collection: string, path: string): FieldInfo | undefined {
  const [name, ...rest] = path.split('.');
  const field = schema.fieldsOf(collection).find((entry) => entry.field === name);
  if (!field || rest.length === 0) return field;
  const target = relatedTarget(schema, field);
  return target && !target.junction && !target.any ? fieldAtPath(schema, target.collection, rest.join('.')) : undefined;
}

/** How `renderTemplate` writes each placeholder of a template on `collection`: as its field's choice text. */
export function templateText(schema: SchemaState, collection: string): (path: string, value: unknown) => string {
  return (path, value) => valueText(fieldAtPath(schema, collection, path), value);
}
