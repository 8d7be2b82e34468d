import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { translateDatabaseFault } from '../database/database-faults.ts';
import { translateUnstorableText } from '../database/translate-db-error.ts';
import { ForbiddenError, InvalidPayloadError, isTesseraError, type TesseraError } from '../errors.ts';
import { translateCancel } from '../query/query-db-errors.ts';
import type { ItemsContext } from '../services/items/items-service.ts';

/** What every tool of one MCP request works with: the app and the caller it runs as. */
export interface ToolContext {
  app: AppContext;
  /** The caller, with `origin: 'mcp'` so its writes are recorded in activity as MCP's. */
  accountability: Accountability;
}

/** A service context for the caller against the current schema overview. */
export async function itemsContext(tools: ToolContext): Promise<ItemsContext> {
  return { ...tools.app.servicesContext(tools.accountability), schema: await tools.app.schema.get() };
}

/** The upper bound of `limit` (QUERY_LIMIT_MAX), for parseQuery. */
export function maxLimit(tools: ToolContext): number | undefined {
  return tools.app.config.query.limitMax ?? undefined;
}

/**
 * Refuses a write unless MCP_ALLOW_WRITES is on and the call says `confirm: true`: a model acting for a
 * person must not change data by a guess, and an operator decides whether MCP may change data at all.
 */
export function assertWriteAllowed(tools: ToolContext, confirm: boolean | undefined): void {
  if (!tools.app.config.mcp.allowWrites) throw new ForbiddenError('Writes through MCP are disabled on this server (MCP_ALLOW_WRITES).');
  if (confirm !== true) throw new InvalidPayloadError('"confirm" must be true to write: ask the user to confirm this change, then call again with "confirm": true.', { field: 'confirm' });
}

/** A tool's answer: its data as JSON text, as Directus's MCP tools answer. */
export function jsonResult(data: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data ?? null) }] };
}

/** The REST error a failure would have been answered with; null for one no client may see. */
function clientError(caught: unknown): TesseraError | null {
  const error = isTesseraError(caught) ? caught : (translateCancel(caught) ?? translateDatabaseFault(caught) ?? translateUnstorableText(caught));
  return error?.expose ? error : null;
}

/**
 * Runs a tool's work; a failure becomes a tool error carrying the REST error envelope
 * (`{ errors: [{ message, extensions: { code, field? } }] }`), and an unexpected one is logged and
 * answered with a generic message, as the HTTP error handler does.
 */
export async function runTool(tools: ToolContext, work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return jsonResult(await work());
  } catch (caught) {
    const error = clientError(caught);
    if (!error) tools.app.logger.error({ err: caught }, 'unexpected error in an MCP tool');
    const body = error
      ? { errors: [{ message: error.message, extensions: { ...error.extensions, code: error.code } }] }
      : { errors: [{ message: 'An unexpected error occurred.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}
