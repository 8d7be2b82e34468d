import type { FieldInfo } from '../schema/types.ts';

/** What every field interface receives: antd's Form.Item passes `value` and `onChange`. */
export interface InterfaceProps<T = unknown> {
  field: FieldInfo;
  value?: T;
  onChange?: (value: T | null) => void;
  disabled?: boolean;
  /** `meta.options` merged with the options of matching conditions. */
  options: Record<string, unknown>;
}

/** A string option, or undefined. */
export function stringOption(options: Record<string, unknown>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A numeric option, or undefined. */
export function numberOption(options: Record<string, unknown>, key: string): number | undefined {
  const value = options[key];
  return typeof value === 'number' ? value : typeof value === 'string' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : undefined;
}
