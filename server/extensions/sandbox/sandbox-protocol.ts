/**
 * The messages between a sandboxed extension's worker thread (sandbox-worker.ts) and the server thread
 * (sandbox-host.ts). Only JSON text crosses: no object of one side is ever handed to the other.
 */

/** What the worker is started with. */
export interface SandboxWorkerInput {
  /** The extension's server entry, an ES module whose only import may be `directus:api`. */
  code: string;
  filename: string;
  type: 'hook' | 'endpoint' | 'operation';
  /** The `directus:api` functions granted; the others throw at once. */
  granted: string[];
  memoryLimitBytes: number;
  timeLimitMs: number;
}

/** One thing the extension registered while it loaded; `handler` is how the host invokes it. */
export type SandboxRegistration =
  | { kind: 'filter' | 'action'; event: string; handler: number }
  | { kind: 'route'; method: string; path: string; handler: number }
  | { kind: 'operation'; id: string; handler: number };

/** Why an extension was stopped: its time or memory limit, or a failure of its thread. */
export type SandboxLimit = 'time' | 'memory' | 'crash';

/** Worker → host. */
export type FromSandbox =
  | { type: 'loaded'; registrations: SandboxRegistration[] }
  | { type: 'load-failed'; error: SandboxFailure }
  /** A limit was passed (or the runtime broke): the extension must be stopped; nothing more runs in it. */
  | { type: 'stopped'; error: SandboxFailure }
  | { type: 'call'; call: number; name: string; args: string }
  | { type: 'settled'; invocation: number; value?: string; error?: SandboxFailure };

/** Host → worker. */
export type ToSandbox = { type: 'invoke'; invocation: number; handler: number; args: string } | { type: 'reply'; call: number; value?: string; error?: string };

/** An error thrown in the sandbox, as text: its message and, when it carries them, a Directus error's name, status and code. */
export interface SandboxFailure {
  message: string;
  name?: string;
  status?: number;
  code?: string;
  /** Set when the failure was a limit: the extension is stopped. */
  limit?: SandboxLimit;
}
