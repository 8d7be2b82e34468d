import pg from 'pg';
import { noteStatement } from '../cache/statement-recorder.ts';
import { statementSignal } from './request-signal.ts';

/** The parts of pg's Connection a cancel request uses (untyped in @types/pg). */
interface CancelConnection {
  on(event: 'connect' | 'error', listener: (...args: unknown[]) => void): void;
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

/** The backend identity pg's Client keeps from the server's BackendKeyData (untyped in @types/pg). */
interface BackendKey {
  processID: number;
  secretKey: number;
}

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

  constructor(config?: string | (pg.ClientConfig & { [CANCEL_ON_ABORT]?: boolean })) {
    super(config);
    this.#cancelOnAbort = typeof config === 'object' && config[CANCEL_ON_ABORT] === true;
  }

  override query(...args: any[]): any {
    noteStatement(args[0]);
    const result = (super.query as (...rest: unknown[]) => unknown)(...args);
    const signal = this.#cancelOnAbort ? statementSignal() : undefined;
    if (!signal || !(result instanceof Promise)) return result;
    let pending = true;
    const cancel = (): void => {
      if (pending) this.#sendCancel();
    };
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    return result.finally(() => {
      pending = false;
      signal.removeEventListener('abort', cancel);
    });
  }

  /** Sends a CancelRequest for this connection's backend (as pg's own Client#cancel does). */
  #sendCancel(): void {
    const { processID, secretKey } = this as unknown as BackendKey;
    const connection = new pg.Connection() as unknown as CancelConnection;
    connection.on('error', () => undefined);
    connection.on('connect', () => connection.cancel(processID, secretKey));
    if (this.host?.startsWith('/')) connection.connect(`${this.host}/.s.PGSQL.${this.port}`);
    else connection.connect(this.port, this.host);
  }
}
