import { AsyncLocalStorage } from 'node:async_hooks';

/** The signal of the request being served: aborted when its client goes away. */
const requests = new AsyncLocalStorage<AbortSignal>();
/** The signal statements issued right now may be cancelled by; only set around work that opts in. */
const statements = new AsyncLocalStorage<AbortSignal>();

/** Runs a request's handling with its abort signal available to `cancellable`. */
export function runWithRequestSignal<T>(signal: AbortSignal, work: () => T): T {
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
export function statementSignal(): AbortSignal | undefined {
  return statements.getStore();
}
