import type { Logger } from './logger.ts';

/**
 * Keeps a serving process alive through errors nobody caught: a stray rejected promise or a throw in
 * a timer or event callback is logged (pino, level error) and the server goes on answering. Node's
 * default would end the process and every request in flight with it; the request that caused the
 * error, if any, is already answered or dropped by then.
 * Returns a function that removes the handlers.
 */
export function installProcessGuards(logger: Logger): () => void {
  const onException = (error: Error, origin: string) => {
    logger.error({ err: error, origin }, 'uncaught exception (the server keeps running)');
  };
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (the server keeps running)');
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
