import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import type { FromSandbox, SandboxFailure, SandboxRegistration, SandboxWorkerInput, ToSandbox } from './sandbox-protocol.ts';

const WORKER = new URL('./sandbox-worker.ts', import.meta.url);
// Loading QuickJS in a fresh thread takes 50–400 ms; this bounds it (and the module's load) on a very busy machine.
const START_LIMIT_MS = 15_000;
// The thread's own JavaScript heap: the QuickJS glue and the JSON crossing over (the QuickJS heap has its own limit).
const WORKER_HEAP_MB = 64;

/** Runs a `directus:api` function for the extension; `context` is the invocation the call belongs to. */
export type HostCall<C> = (name: string, args: unknown[], context: C) => Promise<unknown>;

/** A sandboxed extension, loaded in its own thread. */
export interface SandboxedExtension<C> {
  registrations: SandboxRegistration[];
  /** Calls one registered handler with JSON-able arguments; resolves with what it returned. */
  invoke(handler: number, args: unknown[], context: C): Promise<unknown>;
  /** Ends the thread; pending invocations reject. */
  stop(): Promise<void>;
}

/** Why a sandboxed extension could not be loaded or was stopped. */
export class SandboxStoppedError extends Error {
  override name = 'SandboxStoppedError';
}

/**
 * Starts an extension's worker thread and waits for it to load and register. Invocations run one at a
 * time per extension, so a host call is always made for the invocation running (its caller's accountability);
 * `onStopped` is told when a limit stops the extension later (its thread is ended then).
 */
export async function startSandbox<C>(input: SandboxWorkerInput, hostCall: HostCall<C>, onStopped: (failure: SandboxFailure) => void): Promise<SandboxedExtension<C>> {
  const worker = new Worker(WORKER, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 } });
  const queue = pLimit(1);
  let current: { invocation: number; context: C; resolve(value: unknown): void; reject(error: Error): void } | null = null;
  let invocations = 0;
  let ended: SandboxFailure | null = null;
  let running = false;
  let loaded: (registrations: SandboxRegistration[]) => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const ready = new Promise<SandboxRegistration[]>((resolve, reject) => ((loaded = resolve), (failed = reject)));
  const send = (message: ToSandbox) => worker.postMessage(message);

  const end = (failure: SandboxFailure) => {
    if (ended) return;
    ended = failure;
    void worker.terminate();
    failed(new SandboxStoppedError(failure.message));
    current?.reject(new SandboxStoppedError(`The sandboxed extension was stopped: ${failure.message}.`));
    current = null;
    if (running) onStopped(failure);
  };
  const timer = setTimeout(() => end({ message: `it did not load within ${START_LIMIT_MS} ms`, limit: 'time' }), START_LIMIT_MS);

  worker.on('message', (message: FromSandbox) => {
    switch (message.type) {
      case 'loaded':
        clearTimeout(timer);
        running = true;
        return loaded(message.registrations);
      case 'load-failed':
        clearTimeout(timer);
        ended = message.error;
        void worker.terminate();
        return failed(new Error(message.error.message));
      case 'stopped':
        clearTimeout(timer);
        return end(message.error);
      case 'call': {
        const context = current?.context as C;
        let args: unknown[];
        try {
          args = JSON.parse(message.args) as unknown[];
        } catch {
          args = [];
        }
        hostCall(message.name, args, context).then(
          (value) => !ended && send({ type: 'reply', call: message.call, value: value === undefined ? undefined : JSON.stringify(value) }),
          (error: unknown) => !ended && send({ type: 'reply', call: message.call, error: error instanceof Error ? error.message : String(error) }),
        );
        return;
      }
      case 'settled': {
        if (!current || current.invocation !== message.invocation) return;
        const { resolve, reject } = current;
        current = null;
        if (message.error) return reject(failureError(message.error));
        return resolve((JSON.parse(message.value ?? '{}') as { value?: unknown }).value);
      }
    }
  });
  worker.on('error', (error: Error & { code?: string }) =>
    end(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { message: `its thread passed its ${WORKER_HEAP_MB} MB heap`, limit: 'memory' } : { message: error.message, limit: 'crash' }),
  );
  worker.on('exit', (code) => end({ message: `its thread ended (exit code ${code})`, limit: 'crash' }));

  const registrations = await ready;
  return {
    registrations,
    invoke: (handler, args, context) =>
      queue(
        () =>
          new Promise<unknown>((resolve, reject) => {
            if (ended) return reject(new SandboxStoppedError(`The sandboxed extension was stopped: ${ended.message}.`));
            const invocation = ++invocations;
            current = { invocation, context, resolve, reject };
            send({ type: 'invoke', invocation, handler, args: JSON.stringify(args) });
          }),
      ),
    async stop() {
      ended ??= { message: 'it was unloaded' };
      current?.reject(new SandboxStoppedError('The sandboxed extension was unloaded.'));
      current = null;
      await worker.terminate();
    },
  };
}

/**
 * An error the extension threw, for Tessera's error handler: one with a 4xx/5xx `status` and a `code`
 * (a bundled @directus/errors error, or any error given both) keeps them, as Directus errors do
 * unsandboxed; any other is a 500 whose message is not shown to the caller.
 */
function failureError(failure: SandboxFailure): Error {
  const error = new Error(failure.message);
  if (typeof failure.status === 'number' && failure.status >= 400 && failure.status < 600 && typeof failure.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(failure.code)) {
    return Object.assign(error, { name: 'DirectusError', status: failure.status, code: failure.code });
  }
  return error;
}
