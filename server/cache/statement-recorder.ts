import { AsyncLocalStorage } from 'node:async_hooks';

interface Recorder {
  statements: Set<string>;
  /** False once the request that opened it has finished: detached work started by it records nothing. */
  open: boolean;
}

const recorders = new AsyncLocalStorage<Recorder>();

/**
 * Runs `work` while noting the text of every statement it sends to the database (the pg client calls
 * `noteStatement`, so nothing escapes: relational joins, permission subqueries, versions, raw SQL). The
 * response cache derives from these texts which tables a read depended on and which a write changed.
 * `statements` holds what was recorded even when `work` throws.
 */
export async function recordStatements<T>(statements: Set<string>, work: () => Promise<T>): Promise<T> {
  const recorder: Recorder = { statements, open: true };
  try {
    return await recorders.run(recorder, work);
  } finally {
    recorder.open = false;
  }
}

/** Whether the current work is part of a request whose statements are recorded (and whose end purges). */
export function statementsRecorded(): boolean {
  return recorders.getStore()?.open === true;
}

/** Called by the database client for each statement it sends. */
export function noteStatement(text: unknown): void {
  const recorder = recorders.getStore();
  if (!recorder?.open) return;
  if (typeof text === 'string') recorder.statements.add(text);
  else if (text && typeof text === 'object' && typeof (text as { text?: unknown }).text === 'string') recorder.statements.add((text as { text: string }).text);
}
