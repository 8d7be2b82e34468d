import type { Accountability } from '../../auth/accountability.ts';
import { assertValidPayload, type RelatedKeyOf } from '../../permissions/validate-payload.ts';
import type { Filter } from '../../query/types.ts';
import type { CollectionOverview } from '../../schema/overview.ts';

type Payload = Record<string, unknown>;

/**
 * Field validation (`meta.validation`): a write that gives a field a value must meet that field's rule,
 * whoever writes (admins included, unlike permission rules), on create and update alike. A field the payload
 * leaves out is not judged (making it required is `meta.required`'s job), and within the rule only the keys
 * the payload sends are. The first broken rule is a 400 FAILED_VALIDATION naming the field, with the field's
 * `validation_message` when it has one.
 */
export function assertFieldRules(collection: CollectionOverview, payload: Payload, accountability: Accountability, keyOf?: RelatedKeyOf): void {
  for (const field of Object.values(collection.fields)) {
    const rule = field.meta?.validation;
    if (!rule || !Object.hasOwn(payload, field.field)) continue;
    assertValidPayload(rule as Filter, payload, 'update', accountability, keyOf, field.meta?.validation_message);
  }
}
