import { sql, type RawBuilder } from 'kysely';
import type { EventAccountability } from '../events/event-names.ts';
import type { OutboxEvent } from '../events/write-jobs.ts';
import { jobSpec } from '../jobs/add-jobs.ts';

/** graphile-worker task that runs one event `action` flow for one write. */
export const FLOW_RUN_TASK = 'tessera_flow_run';
/**
 * Attempts per run. A run is retried only when it could not run at all (the database went away while
 * loading the flow or writing its log); an operation that rejects is part of a finished run, never retried,
 * because its earlier operations may already have had effects.
 */
export const FLOW_RUN_MAX_ATTEMPTS = 3;

/** The job payload: which flow, the `$trigger` it starts with, and who caused the write. */
export interface FlowRunJob {
  flow: string;
  trigger: { event: string; payload: unknown; keys: unknown; key?: unknown; collection: string };
  accountability: EventAccountability | null;
}

/** Whether a jsonb option (a list, or a comma-separated string as older Directus exports have) names `value` (a text expression). */
function optionNames(option: RawBuilder<unknown>, value: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(case jsonb_typeof(${option})
      when 'array' then ${option} ? ${value}
      when 'string' then ${value} = any(string_to_array(replace(${option} #>> '{}', ' ', ''), ','))
      else false end)`;
}

/** Whether a jsonb option is absent or empty (an action flow without collections listens to every collection). */
function optionEmpty(option: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${option} is null or jsonb_typeof(${option}) = 'null' or ${option} = '[]'::jsonb or ${option} = '""'::jsonb)`;
}

/** Whether the flow `f` is an active event `action` flow listening to this action on this collection (text expressions). */
export function flowListens(collection: RawBuilder<unknown>, action: RawBuilder<unknown>): RawBuilder<boolean> {
  const scope = sql`f.options->'scope'`;
  const collections = sql`f.options->'collections'`;
  return sql<boolean>`f.status = 'active'
     and f.trigger = 'event'
     and coalesce(f.options->>'type', 'action') = 'action'
     and ${optionNames(scope, sql`('items.' || ${action})`)}
     and (${optionEmpty(collections)} or ${optionNames(collections, collection)})`;
}

/**
 * A SELECT of one run job spec (and its event's id) per active event `action` flow listening to each event
 * of `events`, a relation of outbox rows (see webhookJobs).
 */
export function flowRunJobs(events: RawBuilder<unknown>): RawBuilder<unknown> {
  const o: OutboxEvent = { collection: sql`o.collection`, action: sql`o.action` };
  const trigger = sql`jsonb_build_object(
    'event', o.collection || '.items.' || o.action,
    'payload', o.payload,
    'keys', o.keys,
    'collection', o.collection) || case when o.action = 'create' then jsonb_build_object('key', o.keys->0) else '{}'::jsonb end`;
  const job = sql`jsonb_build_object('flow', f.id, 'trigger', ${trigger}, 'accountability', o.accountability)`;
  return sql`select ${jobSpec(FLOW_RUN_TASK, job, FLOW_RUN_MAX_ATTEMPTS)} as spec, o.id as event, 1 as kind
    from ${events} o join tessera_flows f on ${flowListens(o.collection, o.action)}`;
}
