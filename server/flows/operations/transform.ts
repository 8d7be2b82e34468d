import type { OperationHandler } from '../flow-types.ts';

/** Returns options.json, already rendered with the flow's data (Directus `transform`). */
export const transform: OperationHandler = (options) => (typeof options.json === 'string' ? JSON.parse(options.json) : (options.json ?? null));
