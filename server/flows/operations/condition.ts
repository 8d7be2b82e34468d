import type { OperationHandler } from '../flow-types.ts';
import { matchesFilter } from '../../query/in-memory-filter.ts';

/** Resolves when options.filter matches the flow's data, rejects otherwise (Directus `condition`). */
export const condition: OperationHandler = (options, { data }) => {
  if (!matchesFilter(options.filter ?? {}, data)) throw Object.assign(new Error('The condition was not met.'), { code: 'CONDITION_FAILED' });
  return null;
};
