import { CheckOutlined, CloseOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { Space, Tag, Typography } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import type { DisplayProps } from '../../extensions/kinds.ts';
import { isNumeric } from '../field-kinds.ts';
import { choicesOf } from '../interfaces/dropdown.tsx';
import { stringOption } from '../interfaces/types.ts';
import { matchingRule, mimeExtension, relativeTime } from './relative-time.ts';

const EMPTY = <Typography.Text type="secondary">—</Typography.Text>;
const empty = (value: unknown) => value === null || value === undefined || value === '';

/** `raw`: the value as stored. */
export function RawDisplay({ value }: DisplayProps) {
  if (empty(value)) return EMPTY;
  return <>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</>;
}

/** `formatted-value`: numbers in the locale, `prefix`/`suffix`, `bold`/`italic`, `color`/`background`, `conditionalFormatting` rules. */
export function FormattedValueDisplay({ value, field, options }: DisplayProps) {
  const { locale } = usePreferences();
  if (empty(value)) return EMPTY;
  const rule = matchingRule(value, options.conditionalFormatting);
  const text = isNumeric(field) ? formatNumber(value as number | string, locale) : String(value);
  const color = rule?.color ?? stringOption(options, 'color');
  const background = rule?.background ?? stringOption(options, 'background');
  const style = { color, background, fontWeight: options.bold ? 600 : undefined, fontStyle: options.italic ? 'italic' : undefined, padding: background ? '0 6px' : undefined, borderRadius: 4 };
  return (
    <span style={style} data-testid="display-formatted-value">
      {rule?.text ?? `${stringOption(options, 'prefix') ?? ''}${text}${stringOption(options, 'suffix') ?? ''}`}
    </span>
  );
}

/** `labels`: each value as a badge of its choice (`choices` with `foreground`/`background`), or a dot (`showAsDot`). */
export function LabelsDisplay({ value, field, options }: DisplayProps) {
  if (empty(value)) return EMPTY;
  const values = Array.isArray(value) ? value : [value];
  const stored = Array.isArray(options.choices) ? options.choices : (field.meta?.options?.choices ?? []);
  const choices = choicesOf({ choices: stored });
  const raw = (Array.isArray(stored) ? stored : []) as Array<{ value?: unknown; foreground?: string; background?: string }>;
  return (
    <Space size={4} wrap>
      {values.map((entry) => {
        const choice = choices.find((candidate) => String(candidate.value) === String(entry));
        const colors = raw.find((candidate) => candidate && typeof candidate === 'object' && String(candidate.value) === String(entry));
        const label = choice?.label ?? String(entry);
        if (options.showAsDot) {
          return (
            <span key={String(entry)} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
              <span style={{ width: 10, height: 10, borderRadius: '50%', background: colors?.background ?? '#d9d9d9' }} />
              {label}
            </span>
          );
        }
        return (
          <Tag key={String(entry)} bordered={false} style={{ color: colors?.foreground, background: colors?.background }}>
            {label}
          </Tag>
        );
      })}
    </Space>
  );
}

/** `boolean`: an icon or a label per state (`labelOn`/`labelOff`, `colorOn`/`colorOff`). */
export function BooleanDisplay({ value, options }: DisplayProps) {
  if (value === null || value === undefined) return EMPTY;
  const on = Boolean(value);
  const label = stringOption(options, on ? 'labelOn' : 'labelOff');
  const color = stringOption(options, on ? 'colorOn' : 'colorOff');
  return (
    <span style={{ color, display: 'inline-flex', alignItems: 'center', gap: 6 }} aria-label={String(on)}>
      {on ? <CheckOutlined /> : <CloseOutlined />}
      {label}
    </span>
  );
}

/** `color`: a dot of the colour with its code (`defaultColor` when empty). */
export function ColorDisplay({ value, options }: DisplayProps) {
  const color = empty(value) ? stringOption(options, 'defaultColor') : String(value);
  if (!color) return EMPTY;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      <span style={{ width: 12, height: 12, borderRadius: '50%', background: color, border: '1px solid rgba(0,0,0,0.15)' }} data-testid="color-dot" />
      {color}
    </span>
  );
}

/** `icon`: the icon of a stored icon name (`color`). */
export function IconDisplay({ value, options }: DisplayProps) {
  if (empty(value)) return EMPTY;
  return (
    <span title={String(value)} data-testid={`icon-${String(value)}`}>
      <CollectionIcon name={String(value)} color={stringOption(options, 'color')} />
    </span>
  );
}

/** `datetime`: in the user's locale, or how long ago (`relative`); `format` `short` drops the time of day. */
export function DateTimeDisplay({ value, field, options }: DisplayProps) {
  const { locale } = usePreferences();
  if (empty(value)) return EMPTY;
  const exact = formatDate(String(value), locale, field.type === 'date' ? 'date' : field.type === 'time' ? 'time' : options.format === 'short' ? 'date' : 'dateTime');
  if (options.relative && field.type !== 'time') return <span title={exact}>{relativeTime(String(value), locale)}</span>;
  return <>{exact}</>;
}

/** `rating`: stars out of `maxValue` (5), or `3 / 5` when `simple`. */
export function RatingDisplay({ value, options }: DisplayProps) {
  if (empty(value)) return EMPTY;
  const max = Number(options.maxValue ?? 5) || 5;
  const rating = Math.max(0, Math.min(max, Math.round(Number(value))));
  if (options.simple) return <>{`${rating} / ${max}`}</>;
  return (
    <span aria-label={`${rating} / ${max}`} style={{ color: '#fadb14' }}>
      {Array.from({ length: max }, (_, index) => (index < rating ? <StarFilled key={index} /> : <StarOutlined key={index} />))}
    </span>
  );
}

/** `mime-type`: the type, or its extension (`showAsExtension`). */
export function MimeTypeDisplay({ value, options }: DisplayProps) {
  if (empty(value)) return EMPTY;
  return <>{options.showAsExtension ? mimeExtension(String(value)) : String(value)}</>;
}
