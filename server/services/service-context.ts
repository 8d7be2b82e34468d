import type { Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import type { Config } from '../config/index.ts';
import type { LoginAttempts } from '../auth/login-attempts.ts';
import type { AccessStampPublisher } from '../auth/access-stamps.ts';
import type { ResponseCache } from '../cache/response-cache.ts';
import type { PermissionCache } from '../permissions/permission-cache.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { CollectionRules } from './items/collection-rules.ts';

/** What every service is built with: who is calling, the database handle, and the settings. */
export interface ServiceContext {
  accountability: Accountability;
  /** The database, or the transaction the service must run inside. */
  db: Kysely<any>;
  config: Config;
  /** Failed sign-in counts (auth_login_attempts); the app's store, shared through Redis when configured. */
  loginAttempts?: LoginAttempts;
  /** Effective permissions per role, kept until permissions, roles or the schema change. */
  permissions: PermissionCache;
  /**
   * The shared schema cache. Invalidating it also drops every instance's permission cache, so writes to
   * permissions and roles invalidate through it.
   */
  schemaCache: SchemaCache;
  /** Told (after the commit) whose access a write ended, so their old access tokens stop working everywhere. */
  accessStamps?: AccessStampPublisher;
  /** The response cache, purged after writes that no HTTP request records (CLI, flows, jobs). */
  responseCache?: ResponseCache;
  /** The app's event spine: writes run its filters and emit its actions. */
  events: EventBus;
  /** The app's per-collection rules, applied to every write of their collection. */
  rules: CollectionRules;
}
