import { Migration } from '@mikro-orm/migrations';
import { INTERNAL_SCHEMA } from './20261121000002-auth-verification-tokens.ts';

/** Per user: the moment access issued before it ended (suspension, role or password change). */
export const ACCESS_STAMPS_TABLE = `${INTERNAL_SCHEMA}.access_stamps`;

/**
 * One row per user whose access was cut at least once: access tokens issued before `valid_after` are
 * refused on every instance. Internal schema: never served as a collection, and tessera_users keeps
 * exactly its SPEC fields.
 */
export class AuthAccessStampsMigration extends Migration {
  override name = '20261126000020-auth-access-stamps';

  up(): void {
    this.addSql(`create table "${INTERNAL_SCHEMA}"."access_stamps" (
      "user" uuid not null,
      "valid_after" timestamptz(3) not null,
      constraint "access_stamps_pkey" primary key ("user"),
      constraint "access_stamps_user_foreign" foreign key ("user") references "tessera_users" ("id") on delete cascade
    )`);
  }

  override down(): void {
    this.addSql(`drop table if exists "${INTERNAL_SCHEMA}"."access_stamps"`);
  }
}
