import { Migration } from '@mikro-orm/migrations';
import { INTERNAL_SCHEMA } from './20261121000002-auth-verification-tokens.ts';

/** The last TOTP time step each user signed in (or enabled, or disabled TFA) with. */
export const TFA_USED_STEPS_TABLE = `${INTERNAL_SCHEMA}.tfa_used_steps`;

/**
 * One row per user with the latest TOTP time step accepted for them, so a code works once (RFC 6238 §5.2)
 * on every instance: the database is what they share. Internal schema: never served as a collection.
 */
export class AuthTfaUsedStepsMigration extends Migration {
  override name = '20261123000001-auth-tfa-used-steps';

  up(): void {
    this.addSql(`create table "${INTERNAL_SCHEMA}"."tfa_used_steps" (
      "user" uuid not null,
      "step" bigint not null,
      constraint "tfa_used_steps_pkey" primary key ("user"),
      constraint "tfa_used_steps_user_foreign" foreign key ("user") references "tessera_users" ("id") on delete cascade
    )`);
  }

  override down(): void {
    this.addSql(`drop table if exists "${INTERNAL_SCHEMA}"."tfa_used_steps"`);
  }
}
