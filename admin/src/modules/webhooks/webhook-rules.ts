/**
 * The webhook form's rules, the same as the server's (server/webhooks/validate-webhook.ts): answers
 * message keys so the screen translates them.
 */

export const WEBHOOK_METHODS = ['POST', 'GET'] as const;
export const WEBHOOK_ACTIONS = ['create', 'update', 'delete'] as const;
export const WEBHOOK_STATUSES = ['active', 'inactive'] as const;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A webhook row as the API returns it. */
export interface WebhookRecord {
  id: number;
  name: string;
  method: string;
  url: string;
  status: string;
  data: boolean;
  headers: Array<{ header: string; value: string }> | null;
  actions: string[] | string;
  collections: string[] | string;
}

/** What the form holds. */
export interface WebhookFormValues {
  name?: string;
  method?: string;
  url?: string;
  status?: string;
  data?: boolean;
  headers?: Array<{ header?: string; value?: string } | undefined>;
  actions?: string[];
  collections?: string[];
}

/** A csv column as a list (the API may answer either). */
export function asList(value: string[] | string | null | undefined): string[] {
  if (Array.isArray(value)) return value;
  return (value ?? '').split(',').map((part) => part.trim()).filter(Boolean);
}

/** null when the URL is an absolute http(s) URL, else a message key. */
export function checkUrl(value: string | undefined): string | null {
  if (!value || value.trim() === '') return 'webhooks.errors.required';
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'webhooks.errors.url';
  } catch {
    return 'webhooks.errors.url';
  }
}

/** null when the header name is a valid HTTP token, else a message key. */
export function checkHeaderName(value: string | undefined): string | null {
  if (!value) return 'webhooks.errors.required';
  return HEADER_NAME.test(value) ? null : 'webhooks.errors.headerName';
}

/** null when the header value has no line breaks, else a message key. */
export function checkHeaderValue(value: string | undefined): string | null {
  return /[\r\n]/.test(value ?? '') ? 'webhooks.errors.headerValue' : null;
}

/** The form's values for a stored webhook (or the defaults of a new one). */
export function toFormValues(webhook: WebhookRecord | null): WebhookFormValues {
  if (!webhook) return { method: 'POST', status: 'active', data: true, actions: ['create', 'update', 'delete'], collections: [], headers: [] };
  return {
    name: webhook.name,
    method: webhook.method,
    url: webhook.url,
    status: webhook.status,
    data: webhook.data,
    headers: webhook.headers ?? [],
    actions: asList(webhook.actions),
    collections: asList(webhook.collections),
  };
}

/** The API payload of the form's values: trimmed, empty header rows dropped. */
export function toWebhookPayload(values: WebhookFormValues): Record<string, unknown> {
  const headers = (values.headers ?? []).filter((entry): entry is { header: string; value?: string } => Boolean(entry?.header)).map((entry) => ({ header: entry.header.trim(), value: entry.value ?? '' }));
  return {
    name: values.name?.trim(),
    method: values.method,
    url: values.url?.trim(),
    status: values.status,
    data: Boolean(values.data),
    headers: headers.length > 0 ? headers : null,
    actions: values.actions ?? [],
    collections: values.collections ?? [],
  };
}
