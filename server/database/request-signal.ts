import { AsyncLocalStorage } from 'node:async_hooks';

/** What cancelling a statement needs of a signal: an AbortSignal has it, and so has the cheaper RequestAbort. */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The abort of one request whose client may go away, without an AbortController: every read has one, and an
 * AbortController with its EventTarget signal costs several microseconds of CPU to make and to listen on.
 */
export class RequestAbort implements CancelSignal {
  #aborted = false;
  #listeners: Set<() => void> | null = null;

  get aborted(): boolean {
    return this.#aborted;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return;
    (this.#listeners ??= new Set()).add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners?.delete(listener);
  }

  /** The client went away: every listener runs once. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners;
    this.#listeners = null;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** The signal of the request being served: aborted when its client goes away. */
const requests = new AsyncLocalStorage<CancelSignal>();
/** The signal statements issued right now may be cancelled by; only set around work that opts in. */
const statements = new AsyncLocalStorage<CancelSignal>();

/** Runs a request's handling with its abort signal available to `cancellable`. */
export function runWithRequestSignal<T>(signal: CancelSignal, work: () => T): T {
  return requests.run(signal, work);
}

/**
 * Runs `work` so that its statements are cancelled when the current request is aborted. Opt-in, so only
 * statements whose result belongs to this request alone stop: a schema load or permission cache that other
 * requests share and await must finish whoever started it.
 */
export function cancellable<T>(work: () => T): T {
  const signal = requests.getStore();
  return signal ? statements.run(signal, work) : work();
}

/** The signal that cancels the statement being issued, if it opted in. */
export function statementSignal(): CancelSignal | undefined {
  return statements.getStore();
}
