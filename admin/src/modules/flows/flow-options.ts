/** Flow triggers and accountability choices (Directus 10's, as stored in tessera_flows). */
export const FLOW_TRIGGERS = ['event', 'schedule', 'webhook', 'manual', 'operation'] as const;
export const FLOW_ACCOUNTABILITY = ['all', 'activity'] as const;

/** A flow row as the API returns it. */
export interface FlowRecord {
  id: string;
  name: string;
  icon: string | null;
  color: string | null;
  description: string | null;
  status: string;
  trigger: string | null;
  accountability: string | null;
  options: Record<string, unknown> | null;
  operation: string | null;
}

/** What the create form holds → the API payload (trimmed; blanks are null; the colour as #rrggbb). */
export function toFlowPayload(values: { name?: string; icon?: string; color?: string; description?: string; active?: boolean; trigger?: string; accountability?: string }): Record<string, unknown> {
  return {
    name: values.name?.trim(),
    icon: values.icon?.trim() || null,
    color: values.color?.trim() || null,
    description: values.description?.trim() || null,
    status: values.active === false ? 'inactive' : 'active',
    trigger: values.trigger ?? null,
    accountability: values.accountability === 'none' ? null : (values.accountability ?? 'all'),
  };
}
