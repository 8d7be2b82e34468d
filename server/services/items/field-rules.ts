import type { Accountability } from '../../auth/accountability.ts';
import { assertValidPayload, type RelatedKeyOf } from '../../permissions/validate-payload.ts';
import type { Filter } from '../../query/types.ts';
import type { CollectionOverview, FieldOverview } from '../../schema/overview.ts';

type Payload = Record<string, unknown>;

/**
 * Field validation (`meta.validation`): a write that gives a field a value must meet that field's rule,
 * whoever writes (admins included, unlike permission rules), on create and update alike. A field the payload
 * leaves out is not judged (making it required is `meta.required`'s job), and within the rule only the keys
 * the payload sends are. The first broken rule is a 400 FAILED_VALIDATION naming the field, with the field's
 * `validation_message` when it has one.
 */
export function assertFieldRules(collection: CollectionOverview, payload: Payload, accountability: Accountability, keyOf?: RelatedKeyOf): void {
  for (const field of ruledFields(collection)) {
    if (!Object.hasOwn(payload, field.field)) continue;
    assertValidPayload(field.meta!.validation as Filter, payload, 'update', accountability, keyOf, field.meta?.validation_message);
  }
}

/** The fields with a validation rule, per collection overview (a schema change builds new overviews). */
const ruled = new WeakMap<CollectionOverview, FieldOverview[]>();

/** Most collections have no rule: every write would otherwise walk all their fields to find none. */
function ruledFields(collection: CollectionOverview): FieldOverview[] {
  let fields = ruled.get(collection);
  if (!fields) ruled.set(collection, (fields = Object.values(collection.fields).filter((field) => field.meta?.validation)));
  return fields;
}
