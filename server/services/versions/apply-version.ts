import type { Query } from '../../query/types.ts';
import { ItemsService, type ItemsContext } from '../items/items-service.ts';
import { relationOf } from '../items/relations.ts';

type Payload = Record<string, unknown>;

/** The sub-fields a query asks of relational `field` (`author.name` → `name`); `*` when it only expands it. */
function subFields(query: Query, field: string): string[] {
  const prefix = `${field}.`;
  const fields = (query.fields ?? []).filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  return fields.length > 0 ? fields : ['*'];
}

/**
 * An item as read, with a version's delta laid over it: scalar fields replaced, an m2o key replaced (and,
 * when the read expanded it, the related item read as the caller may read it, with the query's sub-fields),
 * an m2o object laid over the expanded item in turn. Only fields the read returned are touched; `delta`
 * is the version's changes as the caller may read them (VersionsService.readableDelta). o2m changes are
 * not applied (docs/versions.md).
 */
export async function applyVersion(context: ItemsContext, collection: string, item: Payload, delta: Payload, query: Query): Promise<Payload> {
  const result: Payload = { ...item };
  for (const [field, value] of Object.entries(delta)) {
    if (!Object.hasOwn(result, field)) continue;
    const relation = relationOf(context.schema, collection, field);
    if (relation?.kind === 'o2m' || relation?.kind === 'm2a') continue;
    const current = result[field];
    const expanded = relation?.kind === 'm2o' && current !== null && typeof current === 'object';
    if (!expanded || value === null) {
      result[field] = value;
    } else if (typeof value === 'object') {
      // Laid over the expanded item the same way, so only the sub-fields the read returned change.
      result[field] = await applyVersion(context, relation.relation.relatedCollection!, current as Payload, value as Payload, { fields: subFields(query, field) });
    } else {
      const related = new ItemsService(relation.relation.relatedCollection!, { ...context, access: undefined });
      result[field] = await related.readOne(value as string | number, { fields: subFields(query, field) });
    }
  }
  return result;
}
