import { Migration } from '@mikro-orm/migrations';

/**
 * One permission per role, collection and action (the public role, role null, included). With two rows
 * for the same action the effective rule would have to be their union, and a union of different field
 * lists under different item rules shows fields on items neither row meant; one row keeps rules exact.
 */
export class UniquePermissionsMigration extends Migration {
  override name = '20261121000003-unique-permissions';

  up(): void {
    this.addSql(
      `create unique index "tessera_permissions_role_collection_action_unique" on "tessera_permissions" (coalesce("role", '00000000-0000-0000-0000-000000000000'::uuid), "collection", "action")`,
    );
  }

  override down(): void {
    this.addSql(`drop index if exists "tessera_permissions_role_collection_action_unique"`);
  }
}
