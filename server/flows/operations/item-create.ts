import type { OperationHandler } from '../flow-types.ts';
import { asObject, itemsServiceFor } from './items-access.ts';

/** Creates one item or many from options.payload; returns the new key(s) (Directus `item-create`). */
export const itemCreate: OperationHandler = async (options, context) => {
  const service = await itemsServiceFor(options, context);
  const payload = asObject(options.payload) ?? {};
  return Array.isArray(payload) ? service.createMany(payload) : service.createOne(payload);
};
