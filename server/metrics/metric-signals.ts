import diagnosticsChannel from 'node:diagnostics_channel';

/**
 * Events that only the metrics module (METRICS_ENABLED) listens to. Publishing is guarded by
 * `hasSubscribers`, so with metrics off a signal costs one property read where it happens.
 */
export const metricSignals = {
  /** A statement PostgreSQL stopped because it ran past DB_STATEMENT_TIMEOUT. */
  statementTimeout: diagnosticsChannel.channel('tessera:db:statement-timeout'),
} as const;

/** PostgreSQL's text for a statement stopped by statement_timeout (a cancel request says "user request"). */
const STATEMENT_TIMEOUT_MESSAGE = 'canceling statement due to statement timeout';

/** Publishes `statementTimeout` when `result` (a pg query's promise) rejects because of statement_timeout. */
export function watchStatementTimeout(result: unknown): void {
  if (!metricSignals.statementTimeout.hasSubscribers || !(result instanceof Promise)) return;
  result.catch((error: unknown) => {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === '57014' && typeof message === 'string' && message.includes(STATEMENT_TIMEOUT_MESSAGE)) metricSignals.statementTimeout.publish({});
  });
}
