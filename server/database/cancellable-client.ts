import pg from 'pg';
import { noteStatement } from '../cache/statement-recorder.ts';
import { watchStatementTimeout } from '../metrics/metric-signals.ts';
import { statementTraces, traceStatement } from '../observability/statement-traces.ts';
import { statementSignal } from './request-signal.ts';

/** The parts of pg's Connection a cancel request uses (untyped in @types/pg). */
interface CancelConnection {
  on(event: 'connect' | 'error' | 'end', listener: (...args: unknown[]) => void): void;
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

/** The backend identity pg's Client keeps from the server's BackendKeyData (untyped in @types/pg). */
interface BackendKey {
  processID: number;
  secretKey: number;
}

/** How long a statement waits at most for this connection's cancel request to be taken. */
const CANCEL_WAIT_MS = 2_000;
/** After a cancel the statement outlived, the wait before the next one; doubled each time up to MAX_RESEND_MS. */
const FIRST_RESEND_MS = 50;
const MAX_RESEND_MS = 1_000;

/** The pool option that turns cancelling on; the embedded PGlite server can neither interrupt a statement nor take a cancel request. */
export const CANCEL_ON_ABORT = 'tesseraCancelOnAbort';

/**
 * A pg client that cancels its statement when the request that issued it is aborted (the HTTP client
 * disconnected): PostgreSQL stops the work instead of finishing a result nobody will read. The cancel is
 * PostgreSQL's own CancelRequest on a separate connection (what `pg_cancel_backend` does), sent only while
 * the statement is still pending.
 */
export class CancellableClient extends pg.Client {
  readonly #cancelOnAbort: boolean;
  /**
   * Set while a cancel request is on its way. PostgreSQL cancels whatever the backend runs when the request
   * arrives, so a statement issued on this connection before then (the pool may already have handed it to
   * another request) would be the one cancelled; the next statement waits until the server has taken it.
   */
  #cancelling: Promise<void> | null = null;

  constructor(config?: string | (pg.ClientConfig & { [CANCEL_ON_ABORT]?: boolean })) {
    super(config);
    this.#cancelOnAbort = typeof config === 'object' && config[CANCEL_ON_ABORT] === true;
  }

  override query(...args: any[]): any {
    const usesPromise = typeof args[args.length - 1] !== 'function' && typeof args[0]?.submit !== 'function';
    if (this.#cancelling && usesPromise) return this.#cancelling.then(() => this.query(...args));
    noteStatement(args[0]);
    // With OTEL_* traces on, a span per statement (server/observability/tracing.ts); off, one property read.
    const result = usesPromise && statementTraces.hasSubscribers ? traceStatement(args[0], () => (super.query as (...rest: unknown[]) => Promise<unknown>)(...args)) : (super.query as (...rest: unknown[]) => unknown)(...args);
    watchStatementTimeout(result);
    const signal = this.#cancelOnAbort ? statementSignal() : undefined;
    if (!signal || !(result instanceof Promise)) return result;
    let pending = true;
    const cancel = (): void => {
      if (pending) this.#cancelWhile(() => pending, FIRST_RESEND_MS);
    };
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    const settle = (): void => {
      pending = false;
      signal.removeEventListener('abort', cancel);
    };
    // then(…, …) rather than finally(): finally adds a promise and a tick of its own to every read.
    return result.then(
      (value: unknown) => {
        settle();
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
  }

  /**
   * Cancels, and cancels again while the statement is still pending: PostgreSQL can lose a cancel sent as the
   * statement starts (measured on 15: every cancel that arrived while LLVM JIT-compiled a slow read was lost,
   * and the read ran for minutes; docs/testing.md), and a lost cancel is not reported.
   */
  #cancelWhile(pending: () => boolean, wait: number): void {
    void this.#sendCancel().then(() => {
      if (!pending()) return;
      setTimeout(() => {
        if (pending()) this.#cancelWhile(pending, Math.min(wait * 2, MAX_RESEND_MS));
      }, wait).unref();
    });
  }

  /** Sends a CancelRequest for this connection's backend (as pg's own Client#cancel does); settles once the server has taken it. */
  #sendCancel(): Promise<void> {
    const { processID, secretKey } = this as unknown as BackendKey;
    const connection = new pg.Connection() as unknown as CancelConnection;
    // The server closes the cancel connection once it has signalled the backend; a lost one waits at most 2 s.
    const cancelling: Promise<void> = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CANCEL_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      connection.on('end', done);
      connection.on('error', done);
    }).finally(() => {
      if (this.#cancelling === cancelling) this.#cancelling = null;
    });
    this.#cancelling = cancelling;
    connection.on('connect', () => connection.cancel(processID, secretKey));
    if (this.host?.startsWith('/')) connection.connect(`${this.host}/.s.PGSQL.${this.port}`);
    else connection.connect(this.port, this.host);
    return cancelling;
  }
}
