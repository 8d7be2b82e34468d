import { lazyModule } from '../../lazy-module.ts';
import { validateWebhookPayload } from '../../webhooks/validate-webhook.ts';
import type { ItemKey } from './item-keys.ts';
import type { ItemsContext } from './items-service.ts';
import { applySettingsRules } from './settings-rules.ts';
import { applyShareRules } from './share-rules.ts';
import { applyTranslationRules } from './translation-rules.ts';
import { assertUserPasswordPolicy } from './user-credentials.ts';

type Payload = Record<string, unknown>;

// Flow and panel rules bring every flow operation (HTTP client, JWT, mail, cron) and the Insights date code:
// loaded with the first write to tessera_flows, tessera_operations or tessera_panels, not at start.
const loadFlowRules = lazyModule(() => import('../../flows/validate-flow.ts'));
const loadPanelRules = lazyModule(() => import('../../insights/validate-panel-write.ts'));

/** Rules of SPEC.md §5 that belong to one system collection: the payload as `collection` accepts it (`keys`: the items an update changes). */
export async function applySystemRules(context: ItemsContext, collection: string, payload: Payload, mode: 'create' | 'update', keys: ItemKey[] = []): Promise<Payload> {
  const db = context.db;
  if (collection === 'tessera_users') await assertUserPasswordPolicy(db, payload, context.accountability.admin);
  if (collection === 'tessera_settings') return applySettingsRules(payload);
  if (collection === 'tessera_translations') return applyTranslationRules(payload);
  if (collection === 'tessera_webhooks') return validateWebhookPayload(payload, mode, context.schema);
  if (collection === 'tessera_flows') return (await loadFlowRules()).validateFlowPayload(payload, mode);
  if (collection === 'tessera_panels') return (await loadPanelRules()).validatePanelWrite(db, payload, mode, keys);
  if (collection === 'tessera_operations') {
    const rules = await loadFlowRules();
    if (mode === 'create') await rules.assertOperationKeyUnique(db, payload);
    else await rules.assertOperationKeysUniqueOnUpdate(db, keys, payload);
    return rules.validateOperationPayload(payload);
  }
  if (collection !== 'tessera_shares') return payload;
  return applyShareRules(db, context.schema, context.access ?? null, payload, mode);
}
