import type { HttpError } from '@refinedev/core';
import type { FormInstance } from 'antd';

/**
 * Puts an API error's per-field messages on the form's fields (`meta.note` lands on `note` when the
 * form has no `meta` group) and answers the message for the form as a whole, or null when every
 * message found its field.
 */
export function applyServerErrors(form: FormInstance, error: unknown, fieldNames: readonly string[]): string | null {
  const httpError = error as Partial<HttpError> | null;
  const errors = (httpError?.errors ?? {}) as Record<string, string[] | string | { key?: string; message?: string }>;
  const placed: Array<{ name: string; errors: string[] }> = [];
  for (const [path, messages] of Object.entries(errors)) {
    const name = [path, path.split('.').at(-1) ?? path].find((candidate) => fieldNames.includes(candidate));
    if (!name) continue;
    const list = Array.isArray(messages) ? messages : [typeof messages === 'string' ? messages : (messages.message ?? '')];
    placed.push({ name, errors: list });
  }
  if (placed.length > 0) form.setFields(placed);
  return placed.length > 0 ? null : (httpError?.message ?? 'Error');
}
