import { adminQuery } from './postgres.ts';

/**
 * Awaits `work`, or fails after `ms` naming `label` with what the process and the test's database were
 * doing: a step that hangs then says where, instead of the test's own timeout saying only that it ran out.
 */
export async function withinDeadline<T>(label: string, work: Promise<T>, database: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void describeState(database).then((state) => reject(new Error(`${label} did not finish in ${ms} ms. ${state}`))), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function describeState(database: string): Promise<string> {
  const resources = process.getActiveResourcesInfo().reduce<Record<string, number>>((counts, type) => ({ ...counts, [type]: (counts[type] ?? 0) + 1 }), {});
  let sessions = '';
  try {
    const { rows } = await adminQuery(`select pid, state, wait_event_type, wait_event, left(query, 160) as query from pg_stat_activity where datname = '${database.replaceAll("'", "''")}'`);
    sessions = JSON.stringify(rows);
  } catch (error) {
    sessions = `(could not read pg_stat_activity: ${(error as Error).message})`;
  }
  return `Active resources: ${JSON.stringify(resources)}. Sessions on ${database}: ${sessions}`;
}
