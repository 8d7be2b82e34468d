import { sql, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { eventAccountability, type EventAccountability, type ItemAction } from '../events/event-names.ts';
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

/** Whether a jsonb option (a list, or a comma-separated string as older Directus exports have) names `value`. */
function optionNames(option: RawBuilder<unknown>, value: string): RawBuilder<boolean> {
  return sql<boolean>`(case jsonb_typeof(${option})
      when 'array' then ${option} ? ${value}::text
      when 'string' then ${value}::text = any(string_to_array(replace(${option} #>> '{}', ' ', ''), ','))
      else false end)`;
}

/** Whether a jsonb option is absent or empty (an action flow without collections listens to every collection). */
function optionEmpty(option: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${option} is null or jsonb_typeof(${option}) = 'null' or ${option} = '[]'::jsonb or ${option} = '""'::jsonb)`;
}

/**
 * A SELECT of one run job spec per active event `action` flow listening to this write. Like the webhook
 * deliveries they are enqueued on the write's own connection (write-jobs.ts), so a committed write always
 * gets its runs and a rolled-back one never does. `keys` is a jsonb array expression.
 */
export function flowRunJobs(collection: string, action: ItemAction, keys: RawBuilder<unknown>, payload: unknown, accountability: Accountability): RawBuilder<unknown> {
  const scope = sql`f.options->'scope'`;
  const collections = sql`f.options->'collections'`;
  const trigger = sql`jsonb_build_object(
    'event', ${`${collection}.items.${action}`}::text,
    'payload', ${JSON.stringify(payload ?? null)}::jsonb,
    'keys', ${keys},
    'collection', ${collection}::text)${action === 'create' ? sql` || jsonb_build_object('key', (${keys})->0)` : sql``}`;
  const job = sql`jsonb_build_object('flow', f.id, 'trigger', ${trigger}, 'accountability', ${JSON.stringify(eventAccountability(accountability))}::jsonb)`;
  return sql`select ${jobSpec(FLOW_RUN_TASK, job, FLOW_RUN_MAX_ATTEMPTS)} as spec
    from tessera_flows f
   where f.status = 'active'
     and f.trigger = 'event'
     and coalesce(f.options->>'type', 'action') = 'action'
     and ${optionNames(scope, `items.${action}`)}
     and (${optionEmpty(collections)} or ${optionNames(collections, collection)})`;
}
