import { Migration } from '@mikro-orm/migrations';

/**
 * Extensions are recorded once per (source, folder, bundle): the server inserts rows for what it finds, and
 * several instances may do so at once. Schedules of hook extensions claim their ticks like schedule flows.
 */
export class ExtensionsMigration extends Migration {
  override name = '20261126000010-extensions';

  up(): void {
    this.addSql(`create unique index "tessera_extensions_source_folder_bundle" on "tessera_extensions" ("source", "folder", "bundle") nulls not distinct`);
    this.addSql(`create table "tessera_automation"."schedule_ticks" (
      "schedule" text not null,
      "tick" timestamptz not null,
      primary key ("schedule", "tick")
    )`);
  }

  override down(): void {
    this.addSql(`drop table if exists "tessera_automation"."schedule_ticks"`);
    this.addSql(`drop index if exists "tessera_extensions_source_folder_bundle"`);
  }
}
