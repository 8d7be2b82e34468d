import { parentPort, workerData } from 'node:worker_threads';
import { getQuickJS, shouldInterruptAfterDeadline } from 'quickjs-emscripten';

/**
 * The worker thread of one `exec` operation (started by exec.ts): runs the script in a QuickJS WebAssembly
 * runtime, so it reaches no Node API, and posts `{ started }`, then `{ result }` (JSON text) or `{ error }`.
 * Its own thread keeps a runaway script off the event loop that answers requests; exec.ts terminates
 * the thread when the wall-clock limit passes, whatever QuickJS is doing.
 */

/** What exec.ts hands the worker. */
export interface SandboxInput {
  code: string;
  /** The flow's data as JSON. */
  input: string;
  timeLimitMs: number;
  memoryLimitBytes: number;
}

/** What the worker posts back. */
export type SandboxMessage = { started: true } | { result: string } | { error: string };

const { code, input, timeLimitMs, memoryLimitBytes } = workerData as SandboxInput;
const post = (message: SandboxMessage) => parentPort!.postMessage(message);

const QuickJS = await getQuickJS();
const runtime = QuickJS.newRuntime();
runtime.setMemoryLimit(memoryLimitBytes);
runtime.setMaxStackSize(1024 * 1024);
const vm = runtime.newContext();

/** An error value thrown in the VM as text; the memory limit is lifted first, since an out-of-memory error may not even leave room to describe itself. */
function describe(handle: { dispose(): void }): string {
  runtime.setMemoryLimit(-1);
  const value = vm.dump(handle as never) as unknown;
  handle.dispose();
  if (value === null || value === undefined) return 'out of memory';
  if (typeof value === 'object' && 'message' in value) return String((value as { message: unknown }).message);
  return String(value);
}

function run(): SandboxMessage {
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + timeLimitMs));
  const loaded = vm.evalCode(`var module = { exports: {} }; var exports = module.exports;\n${code}\n;globalThis.__run = (input) => Promise.resolve(module.exports(JSON.parse(input))).then((value) => JSON.stringify(value === undefined ? null : value));`);
  if (loaded.error) return { error: describe(loaded.error) };
  loaded.value.dispose();
  const runner = vm.getProp(vm.global, '__run');
  const argument = vm.newString(input);
  const called = vm.callFunction(runner, vm.undefined, argument);
  argument.dispose();
  runner.dispose();
  if (called.error) return { error: describe(called.error) };
  const jobs = runtime.executePendingJobs();
  if (jobs.error) {
    called.value.dispose();
    return { error: describe(jobs.error) };
  }
  const state = vm.getPromiseState(called.value);
  called.value.dispose();
  // The sandbox has no timers, I/O or host callbacks: once its job queue is empty, a pending promise can never settle.
  if (state.type === 'pending') return { error: 'the promise the script returned never settles' };
  if (state.type === 'rejected') return { error: describe(state.error) };
  const text = vm.getString(state.value);
  state.value.dispose();
  return { result: text };
}

post({ started: true });
let outcome: SandboxMessage;
try {
  outcome = run();
} catch (error) {
  outcome = { error: error instanceof Error ? error.message : String(error) };
}
if ('error' in outcome && /interrupted/i.test(outcome.error)) outcome = { error: `interrupted after the ${timeLimitMs} ms time limit` };
post(outcome);
