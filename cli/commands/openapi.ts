import type { Accountability } from '../../server/auth/accountability.ts';
import { publicAccountability, systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { openApiFor } from '../../server/openapi/openapi-for.ts';
import { RolesService } from '../../server/services/roles-service.ts';
import { openSystemContext, type SystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';

/** Options of `tessera openapi`. */
export interface OpenApiOptions {
  role?: string;
  public?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller the document is written for: the administrator by default, a role (a signed-in member of it), or the public. */
async function callerFor(context: SystemContext, options: OpenApiOptions): Promise<Accountability> {
  if (options.public && options.role) throw new UsageError('Use either --role or --public, not both.');
  const cli = { ip: null, userAgent: 'tessera-cli', origin: null };
  if (options.public) return publicAccountability(cli);
  if (!options.role) return systemAccountability();
  const role = UUID.test(options.role)
    ? await context.system.db.selectFrom('tessera_roles').select(['id', 'name', 'admin_access', 'app_access']).where('id', '=', options.role).executeTakeFirst()
    : await new RolesService(context.system).findByName(options.role);
  if (!role) throw new UsageError(`No role is named "${options.role}".`);
  // A member of the role: signed in (so /users/me is listed), with no user of its own to match `$CURRENT_USER` rules.
  return { ...cli, user: '00000000-0000-0000-0000-000000000000', role: role.id, admin: Boolean(role.admin_access), app: Boolean(role.app_access), session: null, share: null };
}

/** `tessera openapi`: prints the OpenAPI 3.1 document (the administrator's view, or a role's with --role) to stdout. */
export async function runOpenApi(options: OpenApiOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const context = await openSystemContext(loadConfig(env));
  try {
    const document = await openApiFor(context.app, await callerFor(context, options));
    // main exits the process right after: wait until a piped stdout has taken the whole document.
    await new Promise<void>((resolve, reject) => process.stdout.write(`${JSON.stringify(document, null, 2)}\n`, (error) => (error ? reject(error) : resolve())));
  } finally {
    await context.close();
  }
}
