/** The `{{field}}` / `{{relation.field}}` placeholders of a display template, as field paths. */
export function templateFields(template: string | null | undefined): string[] {
  if (!template) return [];
  return [...template.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] as string);
}

function valueAt(item: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), item);
}

/**
 * Fills a display template from an item; without a template, the item's key (or the value itself). `text`
 * writes each placeholder's value (a dropdown's choice text: field-text.ts); by default, as it is.
 */
export function renderTemplate(template: string | null | undefined, item: unknown, primaryKey = 'id', text?: (path: string, value: unknown) => string): string {
  if (item === null || item === undefined) return '';
  if (typeof item !== 'object') return String(item);
  if (!template) return String(valueAt(item, primaryKey) ?? '');
  const filled = template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    const value = valueAt(item, path);
    if (value === null || value === undefined) return '';
    return text ? text(path, value) : String(value);
  });
  return filled.trim() || String(valueAt(item, primaryKey) ?? '');
}

/** Whether any placeholder of the template has a value in the item (a subtitle of only separators is left out). */
export function templateHasValues(template: string | null | undefined, item: unknown): boolean {
  return templateFields(template).some((path) => {
    const value = valueAt(item, path);
    return value !== null && value !== undefined && value !== '';
  });
}

/** A default template for a collection without one: its first text-like field, else its key. */
export function guessTemplate(fields: { field: string; type: string }[], primaryKey: string): string {
  const preferred = ['name', 'title', 'label', 'email', 'slug', 'key'];
  const named = preferred.map((name) => fields.find((field) => field.field === name)).find(Boolean);
  const text = named ?? fields.find((field) => field.type === 'string' && field.field !== primaryKey);
  return `{{${(text ?? { field: primaryKey }).field}}}`;
}
