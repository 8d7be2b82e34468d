import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { resolveAccess } from '../permissions/access.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { SettingsService } from '../services/settings-service.ts';
import { packageVersion } from '../version.ts';
import { buildOpenApi } from './build-openapi.ts';
import type { JsonSchema } from './field-schemas.ts';

const ADMIN = {};

/**
 * Documents per schema overview and per what the caller may do (administrators share one key, a role's
 * callers its permission set): every schema or permission change makes new key objects, so a document is
 * built once per version and the old ones are collected. The remaining inputs vary little and key a map.
 */
const BUILT = new WeakMap<SchemaOverview, WeakMap<object, Map<string, JsonSchema>>>();

/** The OpenAPI document for one caller, from the current schema overview and that caller's permissions. */
export async function openApiFor(app: AppContext, accountability: Accountability): Promise<JsonSchema> {
  const schema = await app.schema.get();
  const access = await resolveAccess({ accountability, db: app.database.kysely(), permissions: app.permissions }, schema);
  const settings = await new SettingsService(app.servicesContext(accountability)).read();
  const signedIn = accountability.user !== null;
  const projectName = (settings?.project_name as string | null | undefined) ?? null;
  const build = () => buildOpenApi({ schema, access, signedIn, publicUrl: app.config.server.publicUrl, version: packageVersion(), projectName });
  // A share's reach is its own: its document is not kept.
  if (access?.shared) return build();
  const key = access ? access.permissions : ADMIN;
  let byKey = BUILT.get(schema);
  if (!byKey) BUILT.set(schema, (byKey = new WeakMap()));
  let documents = byKey.get(key);
  if (!documents) byKey.set(key, (documents = new Map()));
  const name = JSON.stringify([signedIn, projectName]);
  let document = documents.get(name);
  if (!document) documents.set(name, (document = build()));
  return document;
}
