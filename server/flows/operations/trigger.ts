import type { OperationHandler } from '../flow-types.ts';

/**
 * Runs options.flow with options.payload (Directus `trigger`); an array payload runs once per entry,
 * one after another (`serial`), all at once (`parallel`), or once with the whole array (`batch`).
 */
export const trigger: OperationHandler = async (options, context) => {
  const flow = String(options.flow ?? '');
  const payload = options.payload;
  if (!Array.isArray(payload) || options.iterationMode === 'batch') return context.runFlow(flow, payload);
  if (options.iterationMode === 'parallel') return Promise.all(payload.map((entry) => context.runFlow(flow, entry)));
  const results: unknown[] = [];
  for (const entry of payload) results.push(await context.runFlow(flow, entry));
  return results;
};
