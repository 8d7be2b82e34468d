import { Migration } from '@mikro-orm/migrations';

/**
 * Schema of tables Tessera keeps for itself and never serves as collections. A schema of their own
 * keeps them out of the collection namespace (the current schema's tables) and out of `tessera_*`,
 * which is exactly the 24 system collections of SPEC.md §3.
 */
export const INTERNAL_SCHEMA = 'tessera_internal';

/** Verification tokens of e-mail link sign-in (SPEC.md §3 "verification token": identifier, token, expires). */
export const VERIFICATION_TOKENS_TABLE = `${INTERNAL_SCHEMA}.verification_tokens`;

/** Creates the internal verification-token table: the e-mail, the token's SHA-256 and its expiry. */
export class AuthVerificationTokensMigration extends Migration {
  override name = '20261121000002-auth-verification-tokens';

  /** Creates the schema and the table; expired rows are found through the expiry index. */
  up(): void {
    this.addSql(`create schema if not exists "${INTERNAL_SCHEMA}"`);
    this.addSql(`create table "${INTERNAL_SCHEMA}"."verification_tokens" (
      "token" char(64) not null,
      "identifier" varchar(255) not null,
      "expires" timestamptz not null,
      constraint "verification_tokens_pkey" primary key ("token")
    )`);
    this.addSql(`create index "verification_tokens_expires_index" on "${INTERNAL_SCHEMA}"."verification_tokens" ("expires")`);
  }

  /** Drops the table, and the schema when nothing else lives in it. */
  override down(): void {
    this.addSql(`drop table if exists "${INTERNAL_SCHEMA}"."verification_tokens"`);
    this.addSql(`do $$ begin
      if not exists (select 1 from pg_tables where schemaname = '${INTERNAL_SCHEMA}') then drop schema if exists "${INTERNAL_SCHEMA}"; end if;
    end $$`);
  }
}
