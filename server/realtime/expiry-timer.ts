/** setTimeout's longest delay (about 24.8 days): a longer one overflows and fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer that can be stopped. */
export interface ExpiryTimer {
  cancel(): void;
}

/**
 * Calls `onExpire` at `expiresAt` (ms since the epoch), however far away: a delay past setTimeout's limit
 * (an ACCESS_TOKEN_TTL of 25 days, say) waits in steps. The timer never keeps the process alive.
 */
export function atExpiry(expiresAt: number, onExpire: () => void): ExpiryTimer {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = expiresAt - Date.now();
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(onExpire, Math.max(0, left));
    timer.unref();
  };
  arm();
  return { cancel: () => clearTimeout(timer) };
}
