import { lazyModule } from '../../lazy-module.ts';
import type { OperationHandler } from '../flow-types.ts';

// The QuickJS WebAssembly build loads with the first exec operation, not at start-up.
const loadQuickJS = lazyModule(() => import('quickjs-emscripten'));

const TIME_LIMIT_MS = 1000;
const MEMORY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Runs options.code (`module.exports = async function(data) { … }`, as in Directus) in a QuickJS
 * WebAssembly sandbox: no require, process, network or file access; an interrupt handler stops it after
 * the time limit and the runtime refuses to grow past the memory limit. The data goes in and the result
 * comes out as JSON.
 */
export const exec: OperationHandler = async (options, { data }) => {
  const { getQuickJS, shouldInterruptAfterDeadline } = await loadQuickJS();
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + TIME_LIMIT_MS));
  const vm = runtime.newContext();
  try {
    const input = JSON.stringify(data) ?? 'null';
    const loaded = vm.evalCode(`var module = { exports: {} }; var exports = module.exports;\n${String(options.code ?? '')}\n;globalThis.__run = (input) => Promise.resolve(module.exports(JSON.parse(input))).then((value) => JSON.stringify(value === undefined ? null : value));`);
    vm.unwrapResult(loaded).dispose();
    const run = vm.getProp(vm.global, '__run');
    const arg = vm.newString(input);
    const promise = vm.unwrapResult(vm.callFunction(run, vm.undefined, arg));
    arg.dispose();
    run.dispose();
    const settled = vm.resolvePromise(promise);
    promise.dispose();
    runtime.executePendingJobs();
    const result = vm.unwrapResult(await settled);
    const text = vm.getString(result);
    result.dispose();
    return JSON.parse(text);
  } catch (error) {
    const message = typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error);
    throw new Error(`Script failed: ${message}`);
  } finally {
    vm.dispose();
    runtime.dispose();
  }
};
