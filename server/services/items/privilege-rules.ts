import type { Kysely } from 'kysely';
import { ForbiddenError } from '../../errors.ts';
import type { Access } from '../../permissions/access.ts';

type Payload = Record<string, unknown>;

/**
 * Only administrators make administrators: whatever permissions a role has on users and roles, a
 * restricted caller cannot put a user into an admin role or give a role admin access. Without this, a
 * permission meant for managing editors would be a path to full control.
 */
export async function assertNoEscalation(db: Kysely<any>, access: Access | null, collection: string, payload: Payload): Promise<void> {
  if (!access) return;
  if (collection === 'tessera_roles' && payload.admin_access === true) {
    throw new ForbiddenError('Only administrators can give a role admin access.', { field: 'admin_access' });
  }
  if (collection === 'tessera_users' && typeof payload.role === 'string') {
    const role = await db.selectFrom('tessera_roles').select('admin_access').where('id', '=', payload.role).executeTakeFirst();
    if (role?.admin_access === true) throw new ForbiddenError('Only administrators can assign an admin role.', { field: 'role' });
  }
}
