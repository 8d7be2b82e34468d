import type { Cron } from 'croner';

/**
 * The occurrence a croner run is for, read from the cron itself (its latest scheduled time at or before
 * `now`), not from the clock: every instance's timer fires a little late, some by more than half a second on a
 * busy machine, and all must claim the same tick key so the tick runs once.
 */
export function scheduledTick(cron: Cron, now: Date = new Date()): Date {
  return cron.previousRuns(1, new Date(now.getTime() + 1))[0] ?? new Date(Math.floor(now.getTime() / 1000) * 1000);
}
