import { parseQuery } from '../../query/parse-query.ts';
import type { OperationHandler } from '../flow-types.ts';
import { asObject, itemsServiceFor, keysOf } from './items-access.ts';

/** Updates options.key (none when it renders empty) or, without a `key` option, the items options.query selects, with options.payload (Directus `item-update`). */
export const itemUpdate: OperationHandler = async (options, context) => {
  const service = await itemsServiceFor(options, context);
  const payload = asObject(options.payload) ?? {};
  const keys = keysOf(options);
  if (keys !== null) return service.updateMany(keys, payload);
  const query = parseQuery(((asObject(options.query) as Record<string, unknown>) ?? {}));
  return service.updateByQuery(query, payload);
};
