import type { OperationHandler } from '../flow-types.ts';

/** Writes options.message to the server log (Directus `log`). */
export const log: OperationHandler = (options, { app, flow }) => {
  app.logger.info({ flow: flow.id }, String(typeof options.message === 'object' ? JSON.stringify(options.message) : (options.message ?? '')));
  return null;
};
