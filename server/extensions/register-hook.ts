import { Cron } from 'croner';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { systemAccountability } from '../auth/accountability.ts';
import type { ActionPayload, FilterMeta } from '../events/event-names.ts';
import { toDirectusAccountability, type ContextParts, type DirectusContext } from './directus-context.ts';
import { directusCollection, eventTarget, isSystemCollection } from './directus-events.ts';
import { scheduledTick } from '../jobs/scheduled-tick.ts';

type FilterFn = (payload: unknown, meta: Record<string, unknown>, context: Record<string, unknown>) => unknown;
type ActionFn = (meta: Record<string, unknown>, context: Record<string, unknown>) => unknown;
type InitFn = (meta: Record<string, unknown>) => unknown;
type ScheduleFn = () => unknown;

/** The register functions a Directus hook is called with. */
export interface HookRegister {
  filter(event: string, handler: FilterFn): void;
  action(event: string, handler: ActionFn): void;
  init(event: string, handler: InitFn): void;
  schedule(cron: string, handler: ScheduleFn): void;
  embed(position: 'head' | 'body', code: string | (() => string)): void;
}

/** What a hook left behind: init handlers by event, embeds, and how to take its filters, actions and timers away. */
export interface HookEffects {
  inits: Array<{ event: string; handler: InitFn }>;
  embeds: Array<{ position: 'head' | 'body'; code: string | (() => string) }>;
  dispose(): void;
}

/**
 * Calls a Directus hook (`({ filter, action, init, schedule, embed }, context) => …`) and wires what it
 * registers onto Tessera's event spine: filters run in the write's transaction and may change or refuse the
 * payload; actions run after commit; schedules tick once across instances (the first instance to claim a tick
 * in tessera_automation.schedule_ticks runs it).
 */
export async function registerHook(app: AppContext, parts: ContextParts, id: string, hook: unknown, context: DirectusContext, options: { schedules: boolean } = { schedules: true }): Promise<HookEffects> {
  if (typeof hook !== 'function') throw new TypeError('A hook must export a function as its default export.');
  const offs: Array<() => void> = [];
  const effects: HookEffects = { inits: [], embeds: [], dispose: () => offs.splice(0).forEach((off) => off()) };
  let schedules = 0;
  const register: HookRegister = {
    filter(event, handler) {
      const target = eventTarget(event);
      offs.push(
        app.events.onFilter(target.name as never, async (payload, meta: FilterMeta) => {
          if (target.userCollectionsOnly && isSystemCollection(meta.collection)) return undefined;
          const isDelete = target.action === 'delete';
          const directusMeta = { ...meta, event, collection: directusCollection(meta.collection), transaction: undefined, accountability: undefined };
          // The write's transaction begins only if the handler gives its `database` to a service.
          const hookContext = { get database() { return parts.databaseFor(meta.openTransaction); }, schema: await parts.schema(), accountability: toDirectusAccountability(meta.accountability) };
          const result = await handler(isDelete ? meta.keys : payload, directusMeta, hookContext);
          return isDelete || result === undefined ? undefined : (result as Record<string, unknown>);
        }, { deferTransaction: true }),
      );
    },
    action(event, handler) {
      const target = eventTarget(event);
      offs.push(
        app.events.onAction(target.name as never, async (meta: ActionPayload) => {
          if (target.userCollectionsOnly && isSystemCollection(meta.collection)) return;
          const collection = directusCollection(meta.collection);
          const directusMeta =
            target.action === 'create'
              ? { event, payload: meta.payload, key: meta.keys[0], collection }
              : target.action === 'delete'
                ? { event, payload: meta.keys, keys: meta.keys, collection }
                : target.action === 'update'
                  ? { event, payload: meta.payload, keys: meta.keys, collection }
                  : { event, payload: meta.payload, keys: meta.keys, key: meta.keys[0], collection, user: meta.accountability?.user ?? null };
          await handler(directusMeta, { get database() { return parts.databaseFor(undefined); }, schema: await parts.schema(), accountability: toDirectusAccountability(meta.accountability) });
        }),
      );
    },
    init(event, handler) {
      effects.inits.push({ event, handler });
    },
    schedule(cron, handler) {
      const key = `${id}#${schedules++}`;
      // A CLI command runs its hooks' commands, not their schedules: the servers tick them.
      if (!options.schedules) return;
      const timer = new Cron(cron, { protect: true }, async (self: Cron) => {
        const tick = scheduledTick(self);
        try {
          const claimed = await sql`insert into tessera_automation.schedule_ticks (schedule, tick) values (${key}, ${tick}) on conflict do nothing returning schedule`.execute(app.servicesContext(systemAccountability()).db);
          if (claimed.rows.length > 0) await handler();
        } catch (error) {
          context.logger.error({ err: error, schedule: cron }, 'extension schedule failed');
        }
      });
      offs.push(() => timer.stop());
    },
    embed(position, code) {
      effects.embeds.push({ position, code });
    },
  };
  try {
    await hook(register, context);
  } catch (error) {
    effects.dispose();
    throw error;
  }
  return effects;
}
