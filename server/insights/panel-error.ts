import type { Logger } from '../logger.ts';
import { TesseraError } from '../errors.ts';

/** What a panel that could not be computed answers instead of data. */
export type PanelError = { error: { code: string; message: string } };

/**
 * A failed panel as its result: the error's code and message when it is one the API would show (FORBIDDEN,
 * INVALID_QUERY, QUERY_TIMEOUT …); anything unexpected is logged and answered without its details.
 */
export function panelError(error: unknown, logger: Logger | undefined, panel: string): PanelError {
  if (error instanceof TesseraError && error.expose && error.status !== 500) return { error: { code: error.code, message: error.message } };
  logger?.error({ err: error, panel }, 'insights panel failed');
  return { error: { code: 'INTERNAL_SERVER_ERROR', message: 'The panel could not be computed.' } };
}
