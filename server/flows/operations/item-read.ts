import { parseQuery } from '../../query/parse-query.ts';
import type { OperationHandler } from '../flow-types.ts';
import { asObject, itemsServiceFor, keysOf } from './items-access.ts';

/** Reads options.key (one or many; none when it renders empty) or, without a `key` option, options.query (Directus `item-read`). */
export const itemRead: OperationHandler = async (options, context) => {
  const service = await itemsServiceFor(options, context);
  const query = parseQuery(((asObject(options.query) as Record<string, unknown>) ?? {}));
  const keys = keysOf(options);
  if (keys === null) return (await service.readByQuery(query)).data;
  if (keys.length === 1 && !Array.isArray(options.key)) return service.readOne(keys[0]!, query);
  return service.readMany(keys, query);
};
