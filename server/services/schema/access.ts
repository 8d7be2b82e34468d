import type { Accountability } from '../../auth/accountability.ts';
import { ForbiddenError } from '../../errors.ts';

/** What a caller wants to do with collections, fields or relations. */
export type SchemaAction = 'read' | 'write';

/**
 * The one access check of the collections, fields and relations services. For now only administrators
 * (and the system) may read or change the schema; the permission engine replaces this check.
 */
export function requireSchemaAccess(accountability: Accountability, _action: SchemaAction): void {
  if (!accountability.admin) throw new ForbiddenError();
}
