import { Migration } from '@mikro-orm/migrations';

/**
 * tessera_automation.record_item_events(collection, action, events, accountability): what every item write
 * runs to record its events in the outbox (server/events/write-jobs.ts). It inserts them only when an active
 * webhook or event action flow listens to the action on the collection, and returns how many it recorded.
 *
 * Before, each write statement carried that check as two `exists` subqueries: PostgreSQL planned them on
 * every write (about 0.2 ms per create, most of what the outbox cost a write nobody listens to). PL/pgSQL
 * plans the statements of a function once per connection and keeps them, so a write now plans a function
 * call. The check still runs in the write's transaction, so a webhook or flow created on any instance is
 * seen by every write that starts after it committed.
 *
 * The conditions are those of webhookListens (server/webhooks/enqueue-deliveries.ts) and flowListens
 * (server/flows/enqueue-flow-runs.ts), which the relay uses to make the jobs; change them together (a later
 * migration replaces this function). tests/integration/webhooks/outbox-listeners.test.ts compares the two on
 * a matrix of webhooks and flows.
 */
export class OutboxRecordFunctionMigration extends Migration {
  override name = '20261126000038-outbox-record-function';

  up(): void {
    this.addSql(`create or replace function "tessera_automation"."record_item_events"(p_collection text, p_action text, p_events jsonb, p_accountability jsonb)
  returns integer language plpgsql volatile as $body$
declare
  recorded integer;
begin
  if not (
    exists (select 1 from tessera_webhooks w
             where w.status = 'active'
               and p_action = any(string_to_array(replace(w.actions, ' ', ''), ','))
               and p_collection = any(string_to_array(replace(w.collections, ' ', ''), ',')))
    or exists (select 1 from tessera_flows f
                where f.status = 'active'
                  and f.trigger = 'event'
                  and coalesce(f.options->>'type', 'action') = 'action'
                  and (case jsonb_typeof(f.options->'scope')
                         when 'array' then f.options->'scope' ? ('items.' || p_action)
                         when 'string' then ('items.' || p_action) = any(string_to_array(replace(f.options->'scope' #>> '{}', ' ', ''), ','))
                         else false end)
                  and (f.options->'collections' is null or jsonb_typeof(f.options->'collections') = 'null'
                       or f.options->'collections' = '[]'::jsonb or f.options->'collections' = '""'::jsonb
                       or (case jsonb_typeof(f.options->'collections')
                             when 'array' then f.options->'collections' ? p_collection
                             when 'string' then p_collection = any(string_to_array(replace(f.options->'collections' #>> '{}', ' ', ''), ','))
                             else false end)))
  ) then
    return 0;
  end if;
  insert into tessera_automation.outbox (collection, action, keys, payload, accountability)
    select p_collection, p_action, e.event->'keys', e.event->'payload', p_accountability
      from jsonb_array_elements(p_events) with ordinality as e (event, position)
     order by e.position;
  get diagnostics recorded = row_count;
  return recorded;
end
$body$`);
  }

  override down(): void {
    this.addSql(`drop function if exists "tessera_automation"."record_item_events"(text, text, jsonb, jsonb)`);
  }
}
