import { loadConfig } from '../../server/config/index.ts';
import { InvalidPayloadError } from '../../server/errors.ts';
import { ADMINISTRATOR_ROLE_NAME, RolesService } from '../../server/services/roles-service.ts';
import { UsersService } from '../../server/services/users-service.ts';
import { openSystemContext, type SystemContext } from '../context.ts';
import { askPassword, askText, say } from '../prompts.ts';

/** Options of `tessera users create`. */
export interface CreateUserOptions {
  email?: string;
  password?: string;
  role?: string;
  admin?: boolean;
  firstName?: string;
  lastName?: string;
  json?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function resolveRole(context: SystemContext, options: CreateUserOptions): Promise<string | null> {
  const wanted = options.admin ? ADMINISTRATOR_ROLE_NAME : options.role;
  if (!wanted) return null;
  if (UUID.test(wanted)) return wanted;
  const role = await new RolesService(context.system).findByName(wanted);
  if (!role) throw new InvalidPayloadError(`No role is named "${wanted}".`, { field: 'role' });
  return role.id;
}

async function withContext<T>(work: (context: SystemContext) => Promise<T>): Promise<T> {
  const context = await openSystemContext(loadConfig(process.env));
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}

/** `tessera users create`: asks for what flags leave out (only on a terminal). */
export async function runCreateUser(options: CreateUserOptions): Promise<void> {
  const email = options.email ?? (await askText({ message: 'E-mail of the new user', flag: '--email' }));
  const password = options.password ?? (await askPassword({ message: 'Password', flag: '--password' }));
  await withContext(async (context) => {
    const role = await resolveRole(context, options);
    const id = await new UsersService(context.system).createOne({ email, password, role, first_name: options.firstName ?? null, last_name: options.lastName ?? null });
    if (options.json) process.stdout.write(`${JSON.stringify({ id, email })}\n`);
    else say.success(`Created user ${email} (${id})`);
  });
}

/** `tessera users passwd`: sets a new password. */
export async function runSetPassword(options: { email?: string; password?: string }): Promise<void> {
  const email = options.email ?? (await askText({ message: 'E-mail of the user', flag: '--email' }));
  const password = options.password ?? (await askPassword({ message: 'New password', flag: '--password' }));
  await withContext(async (context) => {
    await new UsersService(context.system).setPassword(email, password);
    say.success(`Password updated for ${email}`);
  });
}

/** `tessera users list`: every user with role and status. */
export async function runListUsers(options: { json?: boolean }): Promise<void> {
  await withContext(async (context) => {
    const users = await new UsersService(context.system).listAll();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(users, null, 2)}\n`);
      return;
    }
    if (users.length === 0) say.info('No users.');
    for (const user of users) {
      const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
      say.info(`${user.email}${name ? ` (${name})` : ''}  ${user.status}  ${user.role_name ?? 'no role'}  ${user.id}`);
    }
  });
}

