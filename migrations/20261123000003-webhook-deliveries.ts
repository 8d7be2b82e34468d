import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook delivery log. It lives in a schema of its own so the schema reader never takes it for a
 * collection; graphile-worker's queue tables live in `graphile_worker`, installed after these migrations.
 */
export class WebhookDeliveriesMigration extends Migration {
  override name = '20261123000003-webhook-deliveries';

  up(): void {
    this.addSql(`create schema if not exists "tessera_automation"`);
    this.addSql(`create table "tessera_automation"."webhook_deliveries" (
      "id" bigserial primary key,
      "webhook" integer not null references "tessera_webhooks" ("id") on delete cascade,
      "job_id" text not null,
      "event" varchar(255) not null,
      "collection" varchar(64),
      "attempt" integer not null,
      "max_attempts" integer not null,
      "status" varchar(16) not null,
      "http_status" integer,
      "error" text,
      "duration_ms" integer not null,
      "date_created" timestamptz not null default now()
    )`);
    this.addSql(`create index "webhook_deliveries_webhook_index" on "tessera_automation"."webhook_deliveries" ("webhook", "id" desc)`);
  }

  override down(): void {
    this.addSql(`drop schema if exists "tessera_automation" cascade`);
  }
}
