/** A `{{ field.path }}` placeholder of a display template. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const FIELD_PATH = /^[A-Za-z0-9_$]+(\.[A-Za-z0-9_$]+)*$/;

/** The field paths a display template names: `"{{title}} – {{author.name}}"` → `['title', 'author.name']`. */
export function templateFields(template: string): string[] {
  const fields = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const path = match[1] ?? '';
    if (!FIELD_PATH.test(path)) throw new Error(`names "${path}", which is not a field path such as title or author.name.`);
    fields.add(path);
  }
  return [...fields];
}
