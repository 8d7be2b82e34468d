import diagnosticsChannel from 'node:diagnostics_channel';

/** A statement sent to PostgreSQL, as the tracing module sees it: its text, never its parameter values. */
export interface StatementTrace {
  /** The parameterised SQL text (`select … where "id" = $1`). */
  text: string;
  /** Set by the channel when the statement failed. */
  error?: unknown;
}

/**
 * Every statement the pg client sends (server/database/cancellable-client.ts), as a Node tracing channel
 * (start, then asyncEnd or error). Only the tracing module (OTEL_*, server/observability/tracing.ts)
 * subscribes; with traces off, a statement costs one `hasSubscribers` read here.
 */
export const statementTraces = diagnosticsChannel.tracingChannel<StatementTrace, StatementTrace>('tessera:db:statement');

/** Sends a statement through `send` (a pg query that returns a promise) inside the tracing channel. */
export function traceStatement<T>(query: unknown, send: () => Promise<T>): Promise<T> {
  return statementTraces.tracePromise(send, { text: statementText(query) });
}

/** The SQL text of pg's first query argument: a string, or a query config's `text`. */
function statementText(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}
