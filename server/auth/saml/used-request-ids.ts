import { sql, type Kysely } from 'kysely';
import { SAML_USED_REQUESTS_TABLE } from '../../../migrations/20261127000001-auth-saml-used-requests.ts';
import { REQUEST_COOKIE_MAX_AGE_SECONDS } from '../oidc/request-cookies.ts';

/** How long a used AuthnRequest ID is remembered: as long as its RelayState can be opened, plus skew. */
const REMEMBER_SECONDS = REQUEST_COOKIE_MAX_AGE_SECONDS + 60;

/** True when a response to this request was accepted already (a replay), on this instance or another. */
export async function isRequestIdUsed(db: Kysely<any>, id: string): Promise<boolean> {
  const { rows } = await sql`select 1 from ${sql.table(SAML_USED_REQUESTS_TABLE)} where "id" = ${id} and "expires_at" > now()`.execute(db);
  return rows.length > 0;
}

/**
 * Marks the request as answered; false when it already was (two posts of one response racing, on any
 * instance: the primary key lets one insert win). Rows past their time are removed on the way.
 */
export async function consumeRequestId(db: Kysely<any>, id: string): Promise<boolean> {
  await sql`delete from ${sql.table(SAML_USED_REQUESTS_TABLE)} where "expires_at" <= now()`.execute(db);
  const { rows } = await sql`insert into ${sql.table(SAML_USED_REQUESTS_TABLE)} ("id", "expires_at")
    values (${id}, now() + make_interval(secs => ${REMEMBER_SECONDS}))
    on conflict ("id") do nothing returning "id"`.execute(db);
  return rows.length === 1;
}
