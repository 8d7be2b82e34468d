import { DatePicker, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { InterfaceProps } from './types.ts';

/** How each type is stored: dates and times as local text, timestamps as ISO instants. */
const STORAGE: Record<string, string> = { date: 'YYYY-MM-DD', time: 'HH:mm:ss', dateTime: 'YYYY-MM-DDTHH:mm:ss' };

/** ISO 8601 forms a date-time picker also reads when typed (with a space or a `T`, with or without seconds). */
const ISO_DATE_TIME = ['YYYY-MM-DDTHH:mm:ss', 'YYYY-MM-DDTHH:mm', 'YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD'];

function parse(value: string | null | undefined, type: string): Dayjs | null {
  if (!value) return null;
  const parsed = type === 'time' ? dayjs(`1970-01-01T${value}`) : dayjs(value);
  return parsed.isValid() ? parsed : null;
}

function serialise(value: Dayjs | null, type: string): string | null {
  if (!value) return null;
  const format = STORAGE[type];
  return format ? value.format(format) : value.toISOString();
}

/**
 * Date, time, date-time and timestamp pickers, shown in the user's locale; Directus's `datetime` options:
 * `includeSeconds`, `use24` (false: a 12-hour clock).
 */
export function DateTimeInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const current = parse(value, field.type);
  const common = { id: `field-${field.field}`, disabled, style: { width: '100%' } };
  // Without either option the locale's own time format (LT) applies, as before the options existed.
  const chosen = options.use24 !== undefined || Boolean(options.includeSeconds);
  const clock = chosen ? `${options.use24 === false ? 'hh' : 'HH'}:mm${options.includeSeconds ? ':ss' : ''}${options.use24 === false ? ' a' : ''}` : 'LT';
  if (field.type === 'time') return <TimePicker {...common} format={chosen ? clock : undefined} use12Hours={options.use24 === false} value={current} onChange={(next) => onChange?.(serialise(next, 'time'))} />;
  const withTime = field.type === 'dateTime' || field.type === 'timestamp';
  // The first format is shown; the others are also read when typed, so an ISO date pasted or typed is kept.
  const formats = withTime ? [`L ${clock}`, ...ISO_DATE_TIME] : ['L', 'YYYY-MM-DD'];
  return <DatePicker {...common} showTime={withTime ? { format: chosen ? clock : 'HH:mm', use12Hours: options.use24 === false } : false} format={formats} value={current} onChange={(next) => onChange?.(serialise(next, field.type))} />;
}
