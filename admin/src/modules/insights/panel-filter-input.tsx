import { usePreferences } from '../../app/preferences.tsx';
import { FilterRules } from '../../content/filter-builder/filter-builder.tsx';
import type { FilterGroup } from '../../content/filter-builder/filter-model.ts';
import { fieldLabel } from '../../content/field-label.ts';
import { isPresentational, isToMany } from '../../content/field-kinds.ts';
import { choicesOf } from '../../content/interfaces/dropdown.tsx';
import { useSchema } from '../../content/schema/schema-context.tsx';

export const EMPTY_FILTER: FilterGroup = { logic: 'and', rules: [] };

/**
 * A panel's `filter` option, built like a collection list's filter: the fields of the panel's collection,
 * operators by field type, and values that may be the dashboard's variables (`{{ name }}`).
 */
export function PanelFilterInput({ collection, variables, value, onChange }: { collection: string | undefined; variables: readonly string[]; value?: FilterGroup; onChange?(group: FilterGroup): void }) {
  const schema = useSchema();
  const { locale } = usePreferences();
  const fields = collection
    ? schema
        .fieldsOf(collection)
        .filter((field) => !isPresentational(field) && !isToMany(field))
        .map((field) => ({ field: field.field, label: fieldLabel(field, locale), type: field.type, choices: choicesOf(field.meta?.options ?? {}) }))
    : [];
  return <FilterRules fields={fields} value={value ?? EMPTY_FILTER} onChange={(group) => onChange?.(group)} variables={variables} block testId="panel-filter" />;
}
