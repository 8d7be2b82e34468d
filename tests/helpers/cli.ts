import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI entry point, run with the same Node as the tests. */
export const TESSERA_BIN = fileURLToPath(new URL('../../bin/tessera', import.meta.url));

/** A clean environment: nothing from the developer's shell leaks into a spawned command. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', LOG_STYLE: 'raw', ...extra };
}

/** Output and exit code of one finished CLI run. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tessera <args>` to completion (no terminal: stdin is a closed pipe). */
export function runCli(args: string[], options: { env?: Record<string, string>; cwd: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TESSERA_BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `tessera start` running in the background. */
export interface RunningCli {
  child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process ends by itself. */
  exited(): Promise<number | null>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every spawned CLI still running: call it in afterAll so a failed test leaves no server behind. */
export async function killSpawned(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Spawns `tessera <args>` and returns a handle to watch and stop it. */
export function spawnCli(args: string[], options: { env?: Record<string, string>; cwd: string }): RunningCli {
  const child = spawn(process.execPath, [TESSERA_BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`))), timeoutMs);
        const check = () => {
          const match = output.match(pattern);
          if (match) finish(() => resolve(match));
        };
        const onExit = (code: number | null) => finish(() => reject(new Error(`exited with ${code} before ${pattern}; output:\n${output}`)));
        function finish(settle: () => void) {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          child.off('close', onExit);
          settle();
        }
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        child.on('close', onExit);
        check();
      });
    },
    exited: () => exited,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
