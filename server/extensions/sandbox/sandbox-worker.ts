import { parentPort, workerData } from 'node:worker_threads';
import { getQuickJS, shouldInterruptAfterDeadline, type QuickJSHandle } from 'quickjs-emscripten';
import type { FromSandbox, SandboxFailure, SandboxRegistration, SandboxWorkerInput, ToSandbox } from './sandbox-protocol.ts';
import { SDK_FUNCTIONS } from './sandbox-scopes.ts';

/**
 * The worker thread of one sandboxed extension (started by sandbox-host.ts): its module runs in a QuickJS
 * WebAssembly runtime, which has no Node API, no timers and no I/O; `directus:api` is its only import, and
 * each of its functions is a message to the server thread, which checks the requested scopes. Every run of
 * the extension's code (loading, a handler, the continuation after a host call) is bounded by the time
 * limit, the QuickJS heap by the memory limit; passing either stops the extension.
 */

const input = workerData as SandboxWorkerInput;
const port = parentPort!;
const post = (message: FromSandbox) => port.postMessage(message);

const QuickJS = await getQuickJS();
const runtime = QuickJS.newRuntime();
runtime.setMemoryLimit(input.memoryLimitBytes);
runtime.setMaxStackSize(1024 * 1024);
const vm = runtime.newContext();
// QuickJS's own limit refuses one allocation past it, but in this build it does not add up many small ones
// (an array grown item by item reached 2 GB): the WebAssembly memory, which only grows, is watched too.
const wasmMemory = QuickJS.getWasmMemory();
const memoryCap = wasmMemory.buffer.byteLength + input.memoryLimitBytes;
let interruptedFor: 'time' | 'memory' = 'time';

/** Thrown out of a run that passed a limit: the extension is stopped, nothing more runs. */
class LimitReached extends Error {
  readonly limit: 'time' | 'memory';
  constructor(limit: 'time' | 'memory') {
    super(limit === 'time' ? `it ran longer than its ${input.timeLimitMs} ms time limit` : `it used more than its ${Math.round(input.memoryLimitBytes / 1024 / 1024)} MB memory limit`);
    this.limit = limit;
  }
}

/** The `directus:api` module: granted functions call the host, the others throw at once. */
function sdkModule(): string {
  const lines = ['const call = (name, args) => __host(name, JSON.stringify(args)).then((text) => (text === undefined ? undefined : JSON.parse(text)));'];
  for (const [name, scope] of Object.entries(SDK_FUNCTIONS)) {
    if (!input.granted.includes(name)) {
      lines.push(`export function ${name}() { throw new Error('No permission to access "${scope}": the extension did not request it in sandbox.requestedScopes.'); }`);
    } else if (name === 'log') {
      lines.push(`export function log(message) { if (typeof message !== 'string') throw new TypeError('Log message has to be of type string'); call('log', [message]).catch(() => undefined); }`);
    } else {
      lines.push(`export function ${name}(...args) { return call('${name}', args); }`);
    }
  }
  return lines.join('\n');
}

/** Registration, invocation and error description inside the VM; only JSON text leaves it. */
const PRELUDE = `globalThis.__tessera = (() => {
  const registrations = [];
  const handlers = [];
  const add = (entry, handler) => {
    if (typeof handler !== 'function') throw new TypeError('A handler must be a function.');
    handlers.push(handler);
    registrations.push({ ...entry, handler: handlers.length - 1 });
  };
  const text = (name, value) => { if (typeof value !== 'string') throw new TypeError(name + ' has to be of type string'); return value; };
  const describe = (error) => JSON.stringify({ message: String(error?.message ?? error), name: typeof error?.name === 'string' ? error.name : undefined, status: typeof error?.status === 'number' ? error.status : undefined, code: typeof error?.code === 'string' ? error.code : undefined });
  const register = {
    filter: (event, handler) => add({ kind: 'filter', event: text('Filter event', event) }, handler),
    action: (event, handler) => add({ kind: 'action', event: text('Action event', event) }, handler),
  };
  const route = (method) => (path, handler) => add({ kind: 'route', method, path: text('Route path', path) }, handler);
  const router = { get: route('GET'), post: route('POST'), put: route('PUT'), patch: route('PATCH'), delete: route('DELETE') };
  return {
    async setup(type, module) {
      const exported = module.default;
      if (type === 'hook') {
        if (typeof exported !== 'function') throw new TypeError('A hook must export a function as its default export.');
        await exported(register);
      } else if (type === 'endpoint') {
        const handler = typeof exported === 'function' ? exported : exported?.handler;
        if (typeof handler !== 'function') throw new TypeError('An endpoint must export a function or { id, handler }.');
        await handler(router);
      } else {
        if (typeof exported?.id !== 'string' || exported.id === '') throw new TypeError('An operation must export { id, handler } with a non-empty id.');
        add({ kind: 'operation', id: exported.id }, exported.handler);
      }
      return JSON.stringify(registrations);
    },
    invoke(index, args) {
      return Promise.resolve()
        .then(() => handlers[index](...JSON.parse(args)))
        .then((value) => JSON.stringify({ value }), (error) => Promise.reject(describe(error)));
    },
    describe,
  };
})();`;

let hostCalls = 0;
const outstanding = new Map<number, { resolve(value: QuickJSHandle): void; reject(value: QuickJSHandle): void; dispose(): void; handle: QuickJSHandle }>();
/** Invocations whose promise has not settled yet. */
const invocations = new Map<number, QuickJSHandle>();

const hostFunction = vm.newFunction('__host', (nameHandle, argsHandle) => {
  const deferred = vm.newPromise();
  const call = ++hostCalls;
  outstanding.set(call, deferred);
  post({ type: 'call', call, name: vm.getString(nameHandle), args: vm.getString(argsHandle) });
  return deferred.handle;
});
vm.setProp(vm.global, '__host', hostFunction);
hostFunction.dispose();

/** Runs VM work under the time limit, then every job it queued; throws LimitReached past a limit. */
function run<T>(work: () => T): T {
  const pastDeadline = shouldInterruptAfterDeadline(Date.now() + input.timeLimitMs);
  runtime.setInterruptHandler((rt) => {
    if (wasmMemory.buffer.byteLength > memoryCap) interruptedFor = 'memory';
    else if (pastDeadline(rt)) interruptedFor = 'time';
    else return false;
    return true;
  });
  try {
    const result = work();
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const failure = failureOf(jobs.error);
        if (failure.limit) throw new LimitReached(failure.limit as 'time' | 'memory');
      } else if (!runtime.hasPendingJob()) break;
    }
    return result;
  } finally {
    runtime.removeInterruptHandler();
  }
}

/** Describes an error handle (and disposes it); a JSON text made by the prelude's describe is read back. */
function failureOf(handle: QuickJSHandle): SandboxFailure {
  // An out-of-memory error may not even leave room to describe itself: lift the limit first.
  runtime.setMemoryLimit(-1);
  const value = vm.dump(handle) as unknown;
  handle.dispose();
  runtime.setMemoryLimit(input.memoryLimitBytes);
  let failure: SandboxFailure;
  if (typeof value === 'string') {
    try {
      failure = JSON.parse(value) as SandboxFailure;
    } catch {
      failure = { message: value };
    }
  } else if (value === null || value === undefined) {
    failure = { message: 'out of memory' };
  } else {
    failure = { message: typeof value === 'object' && 'message' in value ? String((value as { message: unknown }).message) : String(value), name: (value as { name?: string }).name };
  }
  // QuickJS reports both limits as an InternalError: "interrupted" (time), "out of memory".
  if (failure.name === 'InternalError' || failure.name === undefined) {
    if (failure.message === 'interrupted') return { message: failure.message, limit: interruptedFor };
    if (failure.message === 'out of memory') return { message: failure.message, limit: 'memory' };
  }
  return failure;
}

/** Reports every invocation that settled, and those that can never settle (no host call or job left to wake them). */
function settle(): void {
  for (const [invocation, promise] of invocations) {
    const state = vm.getPromiseState(promise);
    if (state.type === 'pending') {
      if (outstanding.size > 0) continue;
      post({ type: 'settled', invocation, error: { message: 'the promise its handler returned never settles' } });
    } else if (state.type === 'fulfilled') {
      post({ type: 'settled', invocation, value: vm.getString(state.value) });
      state.value.dispose();
    } else {
      const failure = failureOf(state.error);
      // Out of memory inside a handler can surface as its rejection: it stops the extension all the same.
      if (failure.limit) throw new LimitReached(failure.limit as 'time' | 'memory');
      post({ type: 'settled', invocation, error: failure });
    }
    promise.dispose();
    invocations.delete(invocation);
  }
}

let dead = false;

/** Reports a limit (or a broken runtime) once; the host terminates this thread. */
function stopped(error: unknown): void {
  if (dead) return;
  dead = true;
  const limit = error instanceof LimitReached ? error.limit : 'crash';
  post({ type: 'stopped', error: { message: error instanceof Error ? error.message : String(error), limit } });
}

function load(): SandboxRegistration[] {
  runtime.setModuleLoader((name) => (name === 'directus:api' ? sdkModule() : { error: new Error(`The sandbox allows no import but "directus:api" (asked for "${name}").`) }));
  const prelude = vm.evalCode(PRELUDE, '<tessera-sandbox>', { type: 'global' });
  if (prelude.error) throw new Error(failureOf(prelude.error).message);
  prelude.value.dispose();
  const evaluated = run(() => vm.evalCode(input.code, input.filename, { type: 'module' }));
  if (evaluated.error) {
    const failure = failureOf(evaluated.error);
    if (failure.limit) throw new LimitReached(failure.limit as 'time' | 'memory');
    throw new Error(failure.message);
  }
  let namespace = evaluated.value;
  const state = vm.getPromiseState(namespace);
  if (state.type === 'fulfilled' && state.notAPromise !== true) {
    namespace.dispose();
    namespace = state.value;
  } else if (state.type === 'rejected') {
    namespace.dispose();
    throw new Error(failureOf(state.error).message);
  }
  vm.setProp(vm.global, '__module', namespace);
  namespace.dispose();
  const setup = run(() => vm.evalCode(`__tessera.setup(${JSON.stringify(input.type)}, __module).catch((error) => Promise.reject(__tessera.describe(error)))`, '<tessera-setup>', { type: 'global' }));
  if (setup.error) throw new Error(failureOf(setup.error).message);
  const result = vm.getPromiseState(setup.value);
  setup.value.dispose();
  if (result.type === 'pending') throw new Error('Its registration waits on a promise that never settles.');
  if (result.type === 'rejected') throw new Error(failureOf(result.error).message);
  const registrations = JSON.parse(vm.getString(result.value)) as SandboxRegistration[];
  result.value.dispose();
  return registrations;
}

function invoke(invocation: number, handler: number, args: string): void {
  const invokeFn = vm.unwrapResult(vm.evalCode('__tessera.invoke', '<tessera-invoke>', { type: 'global' }));
  const index = vm.newNumber(handler);
  const text = vm.newString(args);
  const called = run(() => vm.callFunction(invokeFn, vm.undefined, index, text));
  for (const handle of [invokeFn, index, text]) handle.dispose();
  if (called.error) {
    const failure = failureOf(called.error);
    if (failure.limit) throw new LimitReached(failure.limit as 'time' | 'memory');
    post({ type: 'settled', invocation, error: failure });
    return;
  }
  invocations.set(invocation, called.value);
}

function reply(message: Extract<ToSandbox, { type: 'reply' }>): void {
  const deferred = outstanding.get(message.call);
  if (!deferred) return;
  outstanding.delete(message.call);
  run(() => {
    if (message.error !== undefined) {
      const error = vm.newError(message.error);
      deferred.reject(error);
      error.dispose();
    } else {
      const value = message.value === undefined ? vm.undefined : vm.newString(message.value);
      deferred.resolve(value);
      if (message.value !== undefined) value.dispose();
    }
    deferred.dispose();
  });
}

try {
  post({ type: 'loaded', registrations: load() });
} catch (error) {
  if (error instanceof LimitReached) stopped(error);
  else post({ type: 'load-failed', error: { message: error instanceof Error ? error.message : String(error) } });
  dead = true;
}

port.on('message', (message: ToSandbox) => {
  if (dead) return;
  try {
    if (message.type === 'invoke') invoke(message.invocation, message.handler, message.args);
    else reply(message);
    settle();
  } catch (error) {
    stopped(error);
  }
});
