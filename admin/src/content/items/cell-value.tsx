import { CheckOutlined, MinusOutlined } from '@ant-design/icons';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { Locale } from '../../app/module.ts';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import { safeNumberToWords } from '../../i18n/number-words.ts';
import { renderTemplate } from '../display-template.ts';
import { choicesOf } from '../interfaces/dropdown.tsx';
import type { RelatedTarget } from '../interfaces/related.ts';
import { isAnyTarget } from '../interfaces/many-to-any-rows.ts';
import { ManyToAnyDisplay } from '../interfaces/many-to-any-display.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { valueKindOf, type ValueKind } from '../field-type-table.ts';
import { displays } from '../../extensions/kinds.ts';
// The built-in displays register themselves (Directus's ids: labels, datetime, related-values …).
import '../displays/index.ts';
import { useRegistry } from '../../extensions/registry.ts';

type Cell = (value: unknown, field: FieldInfo, locale: Locale) => ReactNode;

const textCell: Cell = (value) => (
  <Typography.Text ellipsis style={{ maxWidth: 320 }}>
    {String(value).replace(/<[^>]+>/g, ' ')}
  </Typography.Text>
);

const jsonCell: Cell = (value) => (
  <Typography.Text code ellipsis style={{ maxWidth: 240 }}>
    {JSON.stringify(value)}
  </Typography.Text>
);

const numberCell: Cell = (value, field, locale) => {
  if (field.meta?.display === 'number-words' || field.meta?.display_options?.words) return <span title={String(value)}>{safeNumberToWords(value, locale)}</span>;
  return <>{formatNumber(value as number | string, locale)}</>;
};

/** How a value of each value kind (admin/src/content/field-type-table.ts) shows in a cell without a display of its own. */
const CELLS = {
  boolean: (value) => (value ? <CheckOutlined aria-label="true" /> : <MinusOutlined aria-label="false" />),
  date: (value, _field, locale) => <>{formatDate(String(value), locale, 'date')}</>,
  time: (value, _field, locale) => <>{formatDate(String(value), locale, 'time')}</>,
  dateTime: (value, _field, locale) => <>{formatDate(String(value), locale, 'dateTime')}</>,
  integer: numberCell,
  bigInteger: numberCell,
  float: numberCell,
  decimal: numberCell,
  csv: (value) => <>{(Array.isArray(value) ? value : String(value).split(',')).map((tag) => <Tag key={String(tag)}>{String(tag)}</Tag>)}</>,
  json: jsonCell,
  geometry: jsonCell,
  string: textCell,
  text: textCell,
  hash: textCell,
  uuid: textCell,
  alias: textCell,
} satisfies Record<ValueKind, Cell>;

/** A value as a table cell: relations by their display template, booleans as icons, dates in the locale. */
export function CellValue({ field, value, target, locale }: { field: FieldInfo; value: unknown; target: RelatedTarget | null; locale: Locale }) {
  useRegistry(displays);
  const display = displays.get(field.meta?.display);
  if (display) return <display.component value={value} field={field} options={field.meta?.display_options ?? {}} />;
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">—</Typography.Text>;
  if (target) {
    if (isAnyTarget(target) && Array.isArray(value)) return <ManyToAnyDisplay value={value} target={target} />;
    if (Array.isArray(value)) return <Tag>{value.length}</Tag>;
    return <>{renderTemplate(target.template, value, target.primaryKey)}</>;
  }
  if (field.meta?.special?.includes('conceal')) return <>••••••••</>;
  const choices = choicesOf(field.meta?.options ?? {});
  if (choices.length > 0 && !Array.isArray(value)) {
    const choice = choices.find((entry) => String(entry.value) === String(value));
    if (choice) return <Tag>{choice.label}</Tag>;
  }
  return CELLS[valueKindOf(field.type)](value, field, locale);
}
