import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { resolveAccess } from '../permissions/access.ts';
import { SettingsService } from '../services/settings-service.ts';
import { packageVersion } from '../version.ts';
import { buildOpenApi } from './build-openapi.ts';
import type { JsonSchema } from './field-schemas.ts';

/** The OpenAPI document for one caller, from the current schema overview and that caller's permissions. */
export async function openApiFor(app: AppContext, accountability: Accountability): Promise<JsonSchema> {
  const schema = await app.schema.get();
  const access = await resolveAccess({ accountability, db: app.database.kysely(), permissions: app.permissions }, schema);
  const settings = await new SettingsService(app.servicesContext(accountability)).read();
  return buildOpenApi({
    schema,
    access,
    signedIn: accountability.user !== null,
    publicUrl: app.config.server.publicUrl,
    version: packageVersion(),
    projectName: (settings?.project_name as string | null | undefined) ?? null,
  });
}
