import { AGGREGATE_FUNCTIONS, CURVE_TYPES, METER_SIZES, NOTATIONS, PRECISIONS, RANGES, SORT_DIRECTIONS, VARIABLE_TYPES, type PanelType } from './panel-types.ts';

/**
 * The options form of each panel type, as data: one entry per option, in the order the form shows them.
 * Labels are `insights.options.<key>`, choice labels `insights.options.<key>.<choice>`.
 */
export type OptionKind =
  | 'collection'
  | 'field'
  | 'numberField'
  | 'dateField'
  | 'select'
  | 'number'
  | 'text'
  | 'markdown'
  | 'switch'
  | 'color'
  | 'filter'
  | 'rules'
  | 'variableName';

export interface OptionField {
  key: string;
  kind: OptionKind;
  required?: boolean;
  choices?: readonly string[];
  /** Choices are shown as they are (ranges like "30 days" are translated, functions too: see `choiceKey`). */
  min?: number;
  max?: number;
}

const collection: OptionField = { key: 'collection', kind: 'collection', required: true };
const aggregate: OptionField = { key: 'function', kind: 'select', required: true, choices: AGGREGATE_FUNCTIONS };
const filter: OptionField = { key: 'filter', kind: 'filter' };
const color: OptionField = { key: 'color', kind: 'color' };
const limit = (max: number): OptionField => ({ key: 'limit', kind: 'number', min: 1, max });

export const OPTION_FIELDS: Record<PanelType, OptionField[]> = {
  metric: [
    collection,
    aggregate,
    { key: 'field', kind: 'field', required: true },
    filter,
    { key: 'prefix', kind: 'text' },
    { key: 'suffix', kind: 'text' },
    { key: 'minimumFractionDigits', kind: 'number', min: 0, max: 20 },
    { key: 'maximumFractionDigits', kind: 'number', min: 0, max: 20 },
    { key: 'notation', kind: 'select', choices: NOTATIONS },
    { key: 'conditionalFormatting', kind: 'rules' },
  ],
  'time-series': [
    collection,
    aggregate,
    { key: 'valueField', kind: 'field', required: true },
    { key: 'dateField', kind: 'dateField', required: true },
    { key: 'precision', kind: 'select', required: true, choices: PRECISIONS },
    { key: 'range', kind: 'select', required: true, choices: RANGES },
    { key: 'groupBy', kind: 'field' },
    filter,
    color,
    { key: 'curveType', kind: 'select', choices: CURVE_TYPES },
    { key: 'decimals', kind: 'number', min: 0, max: 10 },
  ],
  'bar-chart': [
    collection,
    { key: 'xAxis', kind: 'field', required: true },
    aggregate,
    { key: 'yAxis', kind: 'field', required: true },
    filter,
    { key: 'horizontal', kind: 'switch' },
    color,
    limit(100),
  ],
  'pie-chart': [
    collection,
    { key: 'column', kind: 'field', required: true },
    aggregate,
    { key: 'valueField', kind: 'field' },
    filter,
    { key: 'donut', kind: 'switch' },
    { key: 'showLabels', kind: 'switch' },
    limit(100),
  ],
  list: [
    collection,
    { key: 'displayTemplate', kind: 'text', required: true },
    { key: 'sortField', kind: 'field' },
    { key: 'sortDirection', kind: 'select', choices: SORT_DIRECTIONS },
    limit(100),
    filter,
  ],
  meter: [
    collection,
    aggregate,
    { key: 'field', kind: 'field', required: true },
    { key: 'goal', kind: 'number', required: true },
    filter,
    color,
    { key: 'size', kind: 'select', choices: METER_SIZES },
  ],
  label: [{ key: 'text', kind: 'markdown', required: true }, color],
  'global-variable': [
    { key: 'field', kind: 'variableName', required: true },
    { key: 'type', kind: 'select', required: true, choices: VARIABLE_TYPES },
    { key: 'defaultValue', kind: 'text' },
  ],
  'relational-variable': [
    { key: 'field', kind: 'variableName', required: true },
    collection,
    { key: 'displayTemplate', kind: 'text' },
    { key: 'multiple', kind: 'switch' },
    limit(1000),
    filter,
  ],
};

/** The message key of a choice: "30 days" → `insights.options.range.30_days`. */
export function choiceKey(key: string, choice: string): string {
  return `insights.options.${key}.${choice.replace(/\s+/g, '_')}`;
}
