import type { Accountability } from '../../auth/accountability.ts';
import { ForbiddenError } from '../../errors.ts';
import { resolveAccess } from '../../permissions/access.ts';
import type { SchemaOverview } from '../../schema/overview.ts';
import type { ServiceContext } from '../service-context.ts';

/** Only administrators (and the system) change the schema. */
export function requireSchemaWrite(accountability: Accountability): void {
  if (!accountability.admin) throw new ForbiddenError("You don't have permission to change the schema.");
}

/** What of the schema a caller may see. */
export interface SchemaVisibility {
  /**
   * The same object for every caller who sees the same (administrators share one; a role's callers share
   * its permission set), so lists filtered by it can be kept per schema overview; null: keep nothing.
   */
  key: object | null;
  collection(name: string): boolean;
  field(collection: string, field: string): boolean;
}

const EVERYTHING: SchemaVisibility = { key: {}, collection: () => true, field: () => true };

/**
 * Checks the caller may read `metaCollection` (tessera_collections, tessera_fields or tessera_relations;
 * app users may by default; a share session may, for the collections its share reaches) and returns what it may see: collections it may read items of, and their
 * fields it may read. Anything else would tell a restricted caller about data it cannot reach.
 */
export async function schemaVisibility(context: ServiceContext, schema: SchemaOverview, metaCollection: string): Promise<SchemaVisibility> {
  const access = await resolveAccess(context, schema);
  if (!access) return EVERYTHING;
  // A share session reads the schema of what it reaches (the share page shows the item with its display
  // templates); its role's permissions on the schema collections do not widen that.
  if (!access.shared) access.require(metaCollection, 'read');
  return {
    // What a role may see depends on its permission set alone (a new object after every change); a share's on its reach.
    key: access.shared ? null : access.permissions,
    collection: (name) => {
      const fields = access.allowedFields(name, 'read');
      return fields === '*' || fields.size > 0;
    },
    field: (collection, field) => {
      const fields = access.allowedFields(collection, 'read');
      return fields === '*' || fields.has(field);
    },
  };
}
