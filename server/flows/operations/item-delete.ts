import { parseQuery } from '../../query/parse-query.ts';
import type { OperationHandler } from '../flow-types.ts';
import { asObject, itemsServiceFor, keysOf } from './items-access.ts';

/** Deletes options.key (none when it renders empty) or, without a `key` option, the items options.query selects; returns the deleted keys (Directus `item-delete`). */
export const itemDelete: OperationHandler = async (options, context) => {
  const service = await itemsServiceFor(options, context);
  const keys = keysOf(options);
  if (keys !== null) return service.deleteMany(keys);
  const query = parseQuery(((asObject(options.query) as Record<string, unknown>) ?? {}));
  return service.deleteByQuery(query);
};
