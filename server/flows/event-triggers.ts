import type { AppContext } from '../app-context.ts';
import { systemAccountability } from '../auth/accountability.ts';
import type { ActionEvent, FilterEvent } from '../events/event-names.ts';
import { InvalidPayloadError } from '../errors.ts';
import { lazyModule } from '../lazy-module.ts';
import { UNHEARD_REFRESH_MS } from '../redis/change-notices.ts';
import { outageNotice } from '../redis/outage-notice.ts';
import type { FlowRow } from './flow-types.ts';

// The engine (every operation) and the scheduler (croner) load once an active flow needs them, not at start.
const loadEngine = lazyModule(() => import('./flow-engine.ts'));
const loadSchedules = lazyModule(() => import('./schedule-triggers.ts'));

const SCOPES = ['items.create', 'items.update', 'items.delete'] as const;

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' && value !== '' ? value.split(',').map((entry) => entry.trim()) : [];
}

function messageOf(value: unknown): string | null {
  return value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string' ? (value as { message: string }).message : null;
}

/**
 * Subscribes every active `filter` event flow to the event spine as a filter hook, run on the write's own
 * transaction (its last result replaces the payload; an unhandled rejection refuses and rolls back the
 * write), and starts the schedule flows. Re-reads the flows whenever a flow or operation is written here
 * (and announces it to the other instances through `app.changes`), when another instance announces such a
 * write, and every UNHEARD_REFRESH_MS while this instance cannot hear the others (no Redis, or Redis down);
 * every `refreshMs` regardless when given. Subscriptions and schedule timers are rebuilt only when the
 * active flows differ from those last read.
 */
export function startEventTriggers(app: AppContext, options: { schedules?: boolean; refreshMs?: number } = {}): () => void {
  let subscriptions: Array<() => void> = [];
  let generation = 0;
  let stopped = false;
  let applied: string | null = null;

  async function sync(): Promise<void> {
    // A resync emitted before the stop may still start after it.
    if (stopped) return;
    const mine = ++generation;
    const db = app.servicesContext(systemAccountability()).db;
    const flows = (await db.selectFrom('tessera_flows').select(['id', 'name', 'status', 'trigger', 'accountability', 'options', 'operation']).where('trigger', 'in', ['event', 'schedule']).where('status', '=', 'active').execute()) as FlowRow[];
    if (mine !== generation) return;
    const fingerprint = JSON.stringify(flows.sort((a, b) => a.id.localeCompare(b.id)));
    if (fingerprint === applied) return;
    const scheduled = flows.filter((flow) => flow.trigger === 'schedule');
    const schedules = scheduled.length > 0 ? await loadSchedules() : null;
    if (mine !== generation) return;
    for (const off of subscriptions.splice(0)) off();
    applied = fingerprint;
    if (schedules && options.schedules !== false) subscriptions.push(schedules.startScheduleTriggers(app, scheduled));
    for (const flow of flows.filter((entry) => entry.trigger === 'event')) {
      const options = flow.options ?? {};
      // Action flows are not subscribed here: each write enqueues their runs as jobs (enqueue-flow-runs.ts).
      if (options.type !== 'filter') continue;
      const scopes = asList(options.scope).filter((scope) => (SCOPES as readonly string[]).includes(scope));
      const collections = asList(options.collections);
      const names = scopes.flatMap((scope) => (collections.length > 0 ? collections.map((collection) => `${collection}.${scope}`) : [scope]));
      for (const name of names) {
        subscriptions.push(
          app.events.onFilter(name as FilterEvent, async (payload, meta) => {
            const { eventCaller, runFlow } = await loadEngine();
            const trigger = { event: meta.event, payload, keys: meta.keys ?? [], collection: meta.collection };
            const result = await runFlow(app, flow.id, trigger, eventCaller(meta.accountability), { transaction: meta.transaction });
            if (result.rejected) throw new InvalidPayloadError(messageOf(result.last) ?? `Flow "${flow.name}" refused the write.`, { field: flow.name });
            const last = result.last;
            return last && typeof last === 'object' && !Array.isArray(last) ? (last as Record<string, unknown>) : undefined;
          }),
        );
      }
    }
  }

  // A failed read (the database restarting) keeps the flows read before and is tried again with the refresh.
  const reading = outageNotice(app.logger, { lost: 'could not read the active flows; keeping those read before', restored: 'reading the active flows again' });
  let stale = false;
  const resync = () =>
    sync().then(
      () => {
        stale = false;
        reading.succeeded();
      },
      (error: unknown) => {
        stale = true;
        reading.failed(error);
      },
    );
  const written = () => {
    void resync();
    app.changes.announce('flows');
  };
  const watchers = ['tessera_flows', 'tessera_operations'].flatMap((collection) => SCOPES.map((scope) => app.events.onAction(`${collection}.${scope}` as ActionEvent, written)));
  const heard = app.changes.on('flows', () => void resync());
  void resync();
  const refresh = setInterval(() => {
    if (options.refreshMs || stale || !app.changes.listening()) void resync();
  }, options.refreshMs ?? UNHEARD_REFRESH_MS);
  refresh.unref();
  return () => {
    // A sync still loading flows finds its generation outdated and subscribes nothing.
    stopped = true;
    generation += 1;
    clearInterval(refresh);
    for (const off of [heard, ...watchers, ...subscriptions.splice(0)]) off();
  };
}
