import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { ADMINISTRATOR_ROLE_NAME, RolesService } from './roles-service.ts';
import { SettingsService } from './settings-service.ts';
import { UsersService } from './users-service.ts';
import type { ServiceContext } from './service-context.ts';

/** What a bootstrap did; `admin` is set only when it created the first administrator. */
export interface BootstrapResult {
  settingsCreated: boolean;
  roleCreated: boolean;
  admin: { email: string; password: string; generated: boolean } | null;
}

/** A password people can type: 18 random bytes in base64url (24 characters). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Seeds an empty database: the settings singleton, the Administrator role and the first admin user
 * (ADMIN_EMAIL / ADMIN_PASSWORD, or a generated password returned once). Idempotent, one transaction,
 * and serialised by an advisory lock so instances starting together seed once.
 */
export async function bootstrapDatabase(context: ServiceContext, options: { projectName?: string } = {}): Promise<BootstrapResult> {
  return context.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('tessera:bootstrap'))`.execute(trx);
    const scoped = { ...context, db: trx };
    const settingsCreated = await new SettingsService(scoped).ensure(options.projectName);

    const roles = new RolesService(scoped);
    let role = await roles.findByName(ADMINISTRATOR_ROLE_NAME);
    const roleCreated = role === null;
    role ??= await roles.create({
      name: ADMINISTRATOR_ROLE_NAME,
      icon: 'verified',
      description: 'Full access to every collection and setting.',
      admin_access: true,
      app_access: true,
    });

    const users = new UsersService(scoped);
    if ((await users.count()) > 0) return { settingsCreated, roleCreated, admin: null };
    const generated = context.config.admin.password === null;
    const password = context.config.admin.password ?? generatePassword();
    await users.createOne({ email: context.config.admin.email, password, role: role.id, first_name: 'Admin', last_name: 'User' });
    return { settingsCreated, roleCreated, admin: { email: context.config.admin.email, password, generated } };
  });
}
