import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { adviseIndexes } from '../indexes/index-advice.ts';
import { createIndexConcurrently, readIndexes, servedBy, type IndexSpec } from '../indexes/managed-indexes.ts';
import { queryShapesFor } from '../indexes/query-shapes.ts';
import { TEXT_TYPES } from '../query/cast-value.ts';
import { validatePayload } from '../services/validate-payload.ts';

const applySchema = yup
  .object({
    collection: yup.string().required(),
    columns: yup.array(yup.string().required()).min(1).max(3).required(),
    kind: yup.string().oneOf(['btree', 'trigram'] as const).default('btree'),
  })
  .noUnknown();

/**
 * `/utils/index-advice`: the read shapes (sort, filter and search columns) this instance served slowly
 * and the index that would serve each; `/apply` builds one with CREATE INDEX CONCURRENTLY. Admins only.
 */
export function indexAdviceController(app: AppContext): Router {
  const router = new Router({ prefix: '/utils/index-advice' });

  router.get('/', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    const only = typeof ctx.query.collection === 'string' ? ctx.query.collection : undefined;
    const schema = await app.schema.get();
    const indexes = await readIndexes(app.database.kysely());
    ctx.body = { data: adviseIndexes(queryShapesFor(app.config).all(), schema, indexes, app.config.indexAdvice.thresholdMs, only) };
  });

  router.post('/apply', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    const input = validatePayload(applySchema, ctx.request.body ?? {});
    const schema = await app.schema.get();
    const collection = schema.collections[input.collection];
    if (!collection || collection.system || !collection.table) {
      throw new InvalidPayloadError(`"${input.collection}" is not a collection with a table.`, { field: 'collection' });
    }
    const spec: IndexSpec = { table: collection.collection, columns: [...new Set(input.columns)], kind: input.kind };
    if (spec.kind === 'trigram' && spec.columns.length !== 1) throw new InvalidPayloadError('A trigram index covers one text column.', { field: 'columns' });
    for (const [position, name] of spec.columns.entries()) {
      const field = collection.fields[name];
      if (!field || field.alias) throw new InvalidPayloadError(`"${name}" is not a column of "${collection.collection}".`, { field: `columns[${position}]` });
      if (spec.kind === 'btree' && field.type === 'json') throw new InvalidPayloadError(`"${name}" is a json field: it has no btree index.`, { field: `columns[${position}]` });
      if (spec.kind === 'trigram' && !TEXT_TYPES.has(field.type)) throw new InvalidPayloadError(`"${name}" is not a text field: a trigram index needs one.`, { field: `columns[${position}]` });
    }
    const db = app.database.kysely();
    const existing = servedBy(await readIndexes(db, spec.table), spec);
    const name = existing ? existing.name : await createIndexConcurrently(db, spec);
    app.schema.invalidate([spec.table]);
    ctx.body = { data: { collection: spec.table, columns: spec.columns, kind: spec.kind, name, created: !existing } };
  });

  return router;
}
