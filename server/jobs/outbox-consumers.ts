import { sql, type RawBuilder } from 'kysely';
import { lazyModule } from '../lazy-module.ts';

/**
 * What one consumer makes of a batch of committed outbox events: given the relation of the moved rows
 * (aliased `o` by the consumer), a SELECT of `spec` (a graphile_worker.job_spec), `event` (the outbox id)
 * and `kind` (orders one event's jobs across consumers).
 */
export type OutboxJobs = (events: RawBuilder<unknown>) => RawBuilder<unknown>;

/**
 * The registry of outbox consumers: each turns committed item events into its durable jobs (webhook
 * deliveries, action flow runs). The relay (outbox-relay.ts) knows none of them by name; the composition
 * root (server/builtins.ts) registers the built-in ones, each module loaded on the relay's first run.
 */
export class OutboxConsumers {
  #entries: Array<() => Promise<OutboxJobs>> = [];

  /** Adds a consumer, loaded on first use; returns how to remove it. */
  register(load: () => Promise<OutboxJobs>): () => void {
    const entry = lazyModule(load);
    this.#entries = [...this.#entries, entry];
    return () => void (this.#entries = this.#entries.filter((other) => other !== entry));
  }

  /** The SELECT of every consumer's job specs for `events`, one after the other (none: an empty SELECT). */
  async specs(events: RawBuilder<unknown>): Promise<RawBuilder<unknown>> {
    const consumers = await Promise.all(this.#entries.map((load) => load()));
    if (consumers.length === 0) return sql`select null::graphile_worker.job_spec as spec, null::bigint as event, 0 as kind where false`;
    return sql.join(
      consumers.map((jobs) => sql`(${jobs(events)})`),
      sql` union all `,
    );
  }
}
