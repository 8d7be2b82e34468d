import { Migration } from '@mikro-orm/migrations';

/** Ticks of schedule flows already claimed: with several instances, the one whose insert wins runs the tick. */
export class FlowTicksMigration extends Migration {
  override name = '20261123000004-flow-ticks';

  up(): void {
    this.addSql(`create schema if not exists "tessera_automation"`);
    this.addSql(`create table "tessera_automation"."flow_ticks" (
      "flow" uuid not null references "tessera_flows" ("id") on delete cascade,
      "tick" timestamptz not null,
      primary key ("flow", "tick")
    )`);
  }

  override down(): void {
    this.addSql(`drop table if exists "tessera_automation"."flow_ticks"`);
  }
}
