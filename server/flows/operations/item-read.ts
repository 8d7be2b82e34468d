import { parseQuery } from '../../query/parse-query.ts';
import type { OperationHandler } from '../flow-types.ts';
import { asObject, itemsServiceFor, keysOf } from './items-access.ts';

/** Reads options.key (one or many) or options.query (Directus `item-read`). */
export const itemRead: OperationHandler = async (options, context) => {
  const service = await itemsServiceFor(options, context);
  const query = parseQuery(((asObject(options.query) as Record<string, unknown>) ?? {}));
  const keys = keysOf(options);
  if (keys.length === 1 && !Array.isArray(options.key)) return service.readOne(keys[0]!, query);
  if (keys.length > 0) return service.readMany(keys, query);
  return (await service.readByQuery(query)).data;
};
