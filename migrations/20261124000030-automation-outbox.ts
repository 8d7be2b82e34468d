import { Migration } from '@mikro-orm/migrations';

/**
 * The transactional outbox of item writes that webhooks or action flows listen to: a write inserts one row
 * in its own transaction (a plain insert, far cheaper than enqueueing its jobs there), and a relay moves
 * committed rows into graphile-worker jobs in batches (server/jobs/outbox-relay.ts).
 */
export class AutomationOutboxMigration extends Migration {
  override name = '20261124000030-automation-outbox';

  up(): void {
    this.addSql(`create schema if not exists "tessera_automation"`);
    this.addSql(`create table "tessera_automation"."outbox" (
      "id" bigserial primary key,
      "collection" text not null,
      "action" text not null,
      "keys" jsonb not null,
      "payload" jsonb,
      "accountability" jsonb,
      "created_at" timestamptz not null default now()
    )`);
  }

  override down(): void {
    this.addSql(`drop table if exists "tessera_automation"."outbox"`);
  }
}
