import type { AppContext } from './app-context.ts';
import { lazyModule } from './lazy-module.ts';
import { registerNotificationMail } from './services/notifications/notification-mail.ts';
import type { CollectionRules } from './services/items/collection-rules.ts';

// Each rule module loads with the first write to its collection, not at start (nor with a CLI command that
// writes nothing): flow and panel rules bring every flow operation (HTTP client, JWT, mail, cron) and the
// Insights date code.
const loadUserRules = lazyModule(() => import('./services/items/user-credentials.ts'));
const loadSettingsRules = lazyModule(() => import('./services/items/settings-rules.ts'));
const loadTranslationRules = lazyModule(() => import('./services/items/translation-rules.ts'));
const loadShareRules = lazyModule(() => import('./services/items/share-rules.ts'));
const loadNotificationRules = lazyModule(() => import('./services/notifications/notification-rules.ts'));
const loadWebhookRules = lazyModule(() => import('./webhooks/validate-webhook.ts'));
const loadFlowRules = lazyModule(() => import('./flows/validate-flow.ts'));
const loadPanelRules = lazyModule(() => import('./insights/validate-panel-write.ts'));

/** Registers the rules SPEC.md §5 gives each system collection; returns how to remove them. */
export function registerSystemRules(rules: CollectionRules): Array<() => void> {
  return [
    rules.register('tessera_users', async (payload, { context }) => (await loadUserRules()).assertUserPasswordPolicy(context.db, payload, context.accountability.admin)),
    rules.register('tessera_settings', async (payload) => (await loadSettingsRules()).applySettingsRules(payload)),
    rules.register('tessera_translations', async (payload) => (await loadTranslationRules()).applyTranslationRules(payload)),
    rules.register('tessera_webhooks', async (payload, { mode, context }) => (await loadWebhookRules()).validateWebhookPayload(payload, mode, context.schema)),
    rules.register('tessera_flows', async (payload, { mode }) => (await loadFlowRules()).validateFlowPayload(payload, mode)),
    rules.register('tessera_operations', async (payload, { mode, keys, context }) => {
      const flowRules = await loadFlowRules();
      if (mode === 'create') await flowRules.assertOperationKeyUnique(context.db, payload);
      else await flowRules.assertOperationKeysUniqueOnUpdate(context.db, keys, payload);
      return flowRules.validateOperationPayload(payload);
    }),
    rules.register('tessera_panels', async (payload, { mode, keys, context }) => (await loadPanelRules()).validatePanelWrite(context.db, payload, mode, keys)),
    rules.register('tessera_shares', async (payload, { mode, context }) => (await loadShareRules()).applyShareRules(context.db, context.schema, context.access ?? null, payload, mode)),
    rules.register('tessera_notifications', async (payload) => (await loadNotificationRules()).assertNotificationStatus(payload)),
  ];
}

/**
 * The composition root of the built-in features: each enters through the core's registries exactly as an
 * extension does (DESIGN.md §9), so events/, jobs/ and services/items/ never import a feature by name.
 * Per-collection rules, the outbox consumers (webhook deliveries, action flow runs, each loaded on the
 * relay's first run) and the notification mail subscriber on the event spine. The flow triggers and the
 * realtime hub subscribe to `context.events` when the app or the socket server starts them. Returns how
 * to remove everything it registered (the context's dispose).
 */
export function registerBuiltins(context: AppContext): () => void {
  const offs = [
    ...registerSystemRules(context.rules),
    context.outbox.register(async () => (await import('./webhooks/enqueue-deliveries.ts')).webhookJobs),
    context.outbox.register(async () => (await import('./flows/enqueue-flow-runs.ts')).flowRunJobs),
    registerNotificationMail(context),
  ];
  return () => offs.splice(0).forEach((off) => off());
}
