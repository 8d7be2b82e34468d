import { Migration } from '@mikro-orm/migrations';
import { INTERNAL_SCHEMA } from './20261121000002-auth-verification-tokens.ts';

/** SAML AuthnRequest IDs whose response was accepted, until their RelayState can no longer be opened. */
export const SAML_USED_REQUESTS_TABLE = `${INTERNAL_SCHEMA}.saml_used_requests`;

/**
 * A SAML response is accepted once: the ID of the request it answers is recorded here, where every instance
 * sees it, so a response replayed to another instance behind the same address is refused too.
 * Internal schema: never served as a collection.
 */
export class AuthSamlUsedRequestsMigration extends Migration {
  override name = '20261127000001-auth-saml-used-requests';

  up(): void {
    this.addSql(`create table "${INTERNAL_SCHEMA}"."saml_used_requests" (
      "id" text not null,
      "expires_at" timestamptz(3) not null,
      constraint "saml_used_requests_pkey" primary key ("id")
    )`);
    this.addSql(`create index "saml_used_requests_expires_at_index" on "${INTERNAL_SCHEMA}"."saml_used_requests" ("expires_at")`);
  }

  override down(): void {
    this.addSql(`drop table if exists "${INTERNAL_SCHEMA}"."saml_used_requests"`);
  }
}
