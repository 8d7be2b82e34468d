import * as yup from 'yup';
import { requireSchemaWrite } from './access.ts';
import { findField, findUserCollection } from './lookup.ts';
import { upsertFieldMeta } from './metadata-writes.ts';
import { currentSchema, runSchemaChange } from './schema-change.ts';
import { field as defineField } from '../../schema/system/define.ts';
import { validatePayload } from '../validate-payload.ts';
import type { SchemaCache } from '../../schema/schema-cache.ts';
import type { ServiceContext } from '../service-context.ts';

/** `PATCH /fields/:collection` with `[{ field, meta: { sort } }, …]`: the editor order of several fields at once. */
const fieldOrderSchema = yup.object({
  fields: yup
    .array(
      yup
        .object({
          field: yup.string().required(),
          meta: yup.object({ sort: yup.number().integer().nullable().defined() }).exact().required(),
        })
        .exact()
        .required(),
    )
    .min(1)
    .required(),
});

/**
 * Writes `meta.sort` of several fields of a user collection in ONE transaction, so a reorder is never
 * half saved. Unknown fields give 403 like the single-field route; a bad entry gives 400 naming it.
 */
export async function updateFieldOrder(context: ServiceContext, cache: SchemaCache, collection: string, payload: unknown): Promise<void> {
  requireSchemaWrite(context.accountability);
  const schema = await currentSchema(context, cache);
  const target = findUserCollection(schema, collection);
  const { fields } = validatePayload(fieldOrderSchema, { fields: payload });
  const current = fields.map((entry) => findField(target, entry.field));
  await runSchemaChange(context, cache, async (trx) => {
    for (const [index, entry] of fields.entries()) {
      const field = current[index]!;
      const defaults = defineField(entry.field, field.type, { special: field.special.length > 0 ? field.special : null }).meta;
      await upsertFieldMeta(trx, collection, entry.field, { sort: entry.meta.sort }, defaults);
    }
  });
}
