import type { Logger } from '../logger.ts';

/** Tells the log that something keeps failing, once per outage instead of once per attempt. */
export interface OutageNotice {
  /** Records a failed attempt; only the first of an outage is logged (warn, with the error). */
  failed(error: unknown): void;
  /** Records a successful attempt; the first after an outage logs the recovery (info) with how many failed. */
  succeeded(): void;
}

/**
 * During a Redis outage every write failed to announce its change and logged it: 1,522 warnings in 20 s at
 * 36 writes/s. Now the change of state is logged, with the count of attempts it affected.
 */
export function outageNotice(logger: Logger, what: { lost: string; restored: string }): OutageNotice {
  let failures = 0;
  return {
    failed(error) {
      if (failures++ === 0) logger.warn({ err: error }, what.lost);
    },
    succeeded() {
      if (failures === 0) return;
      logger.info({ failed: failures }, what.restored);
      failures = 0;
    },
  };
}
