import { Migration } from '@mikro-orm/migrations';

/** Field validation (Directus's `meta.validation`): a filter rule every write must meet, and the message shown when it does not. */
export class FieldValidationMigration extends Migration {
  override name = '20261124000001-field-validation';

  up(): void {
    this.addSql(`alter table "tessera_fields" add column "validation" jsonb null, add column "validation_message" text null`);
  }

  override down(): void {
    this.addSql(`alter table "tessera_fields" drop column if exists "validation", drop column if exists "validation_message"`);
  }
}
