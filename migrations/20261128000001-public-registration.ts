import { Migration } from '@mikro-orm/migrations';

/**
 * Public registration (Directus's `POST /users/register`, issue 31 item 10): the four settings that switch it
 * on and shape it, and the `unverified` status a registered user keeps until the e-mailed link is opened.
 */
export class PublicRegistrationMigration extends Migration {
  override name = '20261128000001-public-registration';

  up(): void {
    this.addSql(`alter table "tessera_settings"
      add column "public_registration" boolean not null default false,
      add column "public_registration_verify_email" boolean not null default true,
      add column "public_registration_role" uuid null,
      add column "public_registration_email_filter" jsonb null,
      add constraint "tessera_settings_public_registration_role_foreign" foreign key ("public_registration_role")
        references "tessera_roles" ("id") on delete set null`);
    this.addSql(`alter table "tessera_users" drop constraint "tessera_users_status_check"`);
    this.addSql(`alter table "tessera_users" add constraint "tessera_users_status_check"
      check ("status" in ('draft', 'invited', 'unverified', 'active', 'suspended', 'archived'))`);
  }

  override down(): void {
    this.addSql(`update "tessera_users" set "status" = 'draft' where "status" = 'unverified'`);
    this.addSql(`alter table "tessera_users" drop constraint "tessera_users_status_check"`);
    this.addSql(`alter table "tessera_users" add constraint "tessera_users_status_check"
      check ("status" in ('draft', 'invited', 'active', 'suspended', 'archived'))`);
    this.addSql(`alter table "tessera_settings"
      drop column "public_registration",
      drop column "public_registration_verify_email",
      drop column "public_registration_role",
      drop column "public_registration_email_filter"`);
  }
}
