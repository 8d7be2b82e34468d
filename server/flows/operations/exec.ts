import { Worker } from 'node:worker_threads';
import pLimit, { type LimitFunction } from 'p-limit';
import type { AppContext } from '../../app-context.ts';
import type { OperationHandler } from '../flow-types.ts';
import type { SandboxInput, SandboxMessage } from './exec-sandbox.ts';

const SANDBOX = new URL('./exec-sandbox.ts', import.meta.url);
// Loading QuickJS in a fresh thread takes ~50 ms on a quiet machine; this bounds it on a very busy one.
const START_LIMIT_MS = 10_000;
// The worker's own JavaScript heap: the QuickJS glue, the data going in and the JSON coming out.
const WORKER_HEAP_MB = 64;

let running = 0;
// Per app context: each thread costs 30–90 MB resident, so a burst of runs must not start one each.
const slots = new WeakMap<AppContext, LimitFunction>();

/** How many exec scripts are running in this process right now (diagnostics and tests). */
export function runningScripts(): number {
  return running;
}

/**
 * Runs options.code (`module.exports = async function(data) { … }`, as in Directus) in a QuickJS
 * WebAssembly sandbox (no require, process, network or file access) on a worker thread of its own, so a
 * script that loops, allocates or never settles cannot hold up requests. Limits: FLOWS_EXEC_TIMEOUT of
 * wall-clock time from the script's start (QuickJS interrupts it; the thread is terminated at the same
 * deadline if it does not stop), FLOWS_EXEC_MAX_MEMORY for the QuickJS heap, a 64 MB JavaScript heap
 * for the thread, and FLOWS_EXEC_MAX_CONCURRENT threads at once per process (more wait their turn). The data
 * goes in and the result comes out as JSON.
 */
export const exec: OperationHandler = async (options, { app, data }) => {
  let limit = slots.get(app);
  if (!limit) slots.set(app, (limit = pLimit(app.config.flows.exec.maxConcurrent)));
  const { timeoutMs, maxMemory } = app.config.flows.exec;
  const result = await limit(() => runInSandbox({ code: String(options.code ?? ''), input: JSON.stringify(data) ?? 'null', timeLimitMs: timeoutMs, memoryLimitBytes: maxMemory }));
  if ('error' in result) throw new Error(`Script failed: ${result.error}`);
  return 'result' in result ? JSON.parse(result.result) : null;
};

/** Runs one script on a new worker thread and terminates the thread once it has answered or run out of time. */
function runInSandbox(input: SandboxInput): Promise<SandboxMessage> {
  const worker = new Worker(SANDBOX, {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  let started = false;
  let timer = setTimeout(() => finish({ error: `the sandbox did not start within ${START_LIMIT_MS} ms` }), START_LIMIT_MS);
  let settle: (outcome: SandboxMessage) => void = () => {};
  const outcome = new Promise<SandboxMessage>((resolve) => (settle = resolve));

  function finish(message: SandboxMessage): void {
    clearTimeout(timer);
    if (started) running -= 1;
    started = false;
    settle(message);
    settle = () => {};
    void worker.terminate();
  }

  worker.on('message', (message: SandboxMessage) => {
    if (!('started' in message)) return finish(message);
    started = true;
    running += 1;
    clearTimeout(timer);
    timer = setTimeout(() => finish({ error: `interrupted after the ${input.timeLimitMs} ms time limit` }), input.timeLimitMs);
  });
  worker.on('error', (error: Error & { code?: string }) =>
    finish({ error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `out of memory (the sandbox thread passed its ${WORKER_HEAP_MB} MB heap)` : error.message }),
  );
  worker.on('exit', (code) => finish({ error: `the sandbox stopped (exit code ${code})` }));
  return outcome;
}
