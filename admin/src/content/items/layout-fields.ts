/** What the built-in layouts read and show of an item, shared by their registry entries and components. Pure logic. */
import { templateFields } from '../display-template.ts';
import { isToMany, relationalKind } from '../field-kinds.ts';
import type { FieldInfo } from '../schema/types.ts';

/** `options[name]` when it is a non-empty string, else null. */
export function stringOption(options: Record<string, unknown>, name: string): string | null {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The file key a file field holds, read as a key or as the related file. */
export function fileKeyOf(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as Record<string, unknown>).id === 'string') return (value as Record<string, string>).id!;
  return null;
}

/** A card's title: the `title` option, else the collection's first text field (the same in what is read and what is shown). */
export function titleTemplate(options: Record<string, unknown>, fields: readonly FieldInfo[]): string {
  return stringOption(options, 'title') ?? `{{${(fields.find((field) => field.type === 'string') ?? fields[0])?.field ?? 'id'}}}`;
}

/** The field paths the cards show: the title's and subtitle's template fields and the image field. */
export function cardsReadFields(options: Record<string, unknown>, fields: readonly FieldInfo[]): string[] {
  const image = stringOption(options, 'imageSource');
  return [...templateFields(titleTemplate(options, fields)), ...templateFields(stringOption(options, 'subtitle')), ...(image ? [image] : [])];
}

/** Whether a field may group a board as far as its own metadata tells (choices, or a many-to-one). */
export function mayGroupBy(field: FieldInfo): boolean {
  if (isToMany(field)) return false;
  const choices = (field.meta?.options ?? {}).choices;
  return relationalKind(field) === 'm2o' || (Array.isArray(choices) && choices.length > 0);
}
