import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.ts';
import type { ForegroundLoad } from './foreground-load.ts';

/**
 * The OS priority (nice value) of the job process: below the serving process (0), so on a busy machine
 * the scheduler gives requests the CPU first and deliveries and flow runs take what is left.
 */
export const JOB_PROCESS_NICE = 10;

/** How long a stopping job process may take to finish its running jobs before it is killed. */
const STOP_TIMEOUT_MS = 30_000;
/** Wait before replacing a job process that died, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1_000;

/** What the job process tells its parent once its worker takes jobs. */
export const JOB_PROCESS_READY = 'tessera-jobs-ready';

/** What the serving process tells its job process when its requests start or stop saturating it. */
export interface ForegroundMessage {
  type: 'tessera-foreground';
  saturated: boolean;
}

export function isForegroundMessage(message: unknown): message is ForegroundMessage {
  return typeof message === 'object' && message !== null && (message as ForegroundMessage).type === 'tessera-foreground';
}

const TESSERA_BIN = fileURLToPath(new URL('../../bin/tessera', import.meta.url));

/** A running job process and how to stop it. */
export interface JobProcess {
  /** The current child's process id (a replaced child has a new one). */
  pid(): number | undefined;
  /** Sends SIGTERM, waits for the running jobs to finish and the process to exit (SIGKILL after 30 s). */
  stop(): Promise<void>;
}

function spawnWorker(logger: Logger, env: NodeJS.ProcessEnv): ChildProcess {
  // The server's debugger flags would make the child claim the same inspector port.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--inspect'));
  const child = fork(TESSERA_BIN, ['worker'], { env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Set from here as well as by the child itself: threads Node starts from now on inherit it.
  try {
    if (child.pid !== undefined) os.setPriority(child.pid, JOB_PROCESS_NICE);
  } catch (error) {
    logger.warn({ err: error }, 'could not lower the job process priority');
  }
  return child;
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Starts `tessera worker` as a child process at a lower OS priority and resolves once its worker takes
 * jobs. A child that dies later is replaced. The child stops when told to, and on its own when this
 * process dies (the IPC channel closes), so no job process outlives the server that started it.
 */
export function startJobProcess(options: { logger: Logger; env?: NodeJS.ProcessEnv; foreground?: ForegroundLoad }): Promise<JobProcess> {
  const { logger, foreground } = options;
  const env = options.env ?? process.env;
  let stopping = false;
  let child = spawnWorker(logger, env);
  let restartTimer: NodeJS.Timeout | null = null;
  // The job process sees no requests: it hears from here when they saturate this process, and gives way.
  const tell = (saturated: boolean) => {
    if (child.connected) child.send({ type: 'tessera-foreground', saturated } satisfies ForegroundMessage, () => undefined);
  };
  const offForeground = foreground?.onChange(tell);

  const supervise = (current: ChildProcess) =>
    current.once('exit', (code, signal) => {
      if (stopping) return;
      logger.error({ pid: current.pid, code, signal }, 'the job process stopped; starting a new one');
      restartTimer = setTimeout(() => {
        restartTimer = null;
        if (stopping) return;
        child = spawnWorker(logger, env);
        supervise(child);
        if (foreground?.saturated) tell(true);
      }, RESTART_DELAY_MS);
    });

  const handle: JobProcess = {
    pid: () => child.pid,
    async stop() {
      stopping = true;
      offForeground?.();
      if (restartTimer) clearTimeout(restartTimer);
      if (hasExited(child)) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killer);
    },
  };

  return new Promise((resolve, reject) => {
    const first = child;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => reject(new Error(`The job process exited (${code ?? signal}) before it was ready.`));
    const onMessage = (message: unknown) => {
      if (message !== JOB_PROCESS_READY) return;
      first.off('exit', onExit);
      first.off('error', reject);
      first.off('message', onMessage);
      supervise(first);
      resolve(handle);
    };
    first.once('exit', onExit);
    first.once('error', reject);
    first.on('message', onMessage);
  });
}
