import type { OperationHandler } from '../flow-types.ts';

/** Waits options.milliseconds (Directus `sleep`), at most 10 minutes. */
export const sleep: OperationHandler = async (options) => {
  const ms = Math.min(Math.max(Number(options.milliseconds) || 0, 0), 600_000);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return null;
};
