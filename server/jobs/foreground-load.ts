/**
 * How busy this process is with requests, so background jobs (webhook deliveries, flow runs) give way to
 * them when the machine is saturated. A request-serving process marks each request's start and end; every
 * SAMPLE_MS the share of that window during which at least one request was in flight is measured. At or
 * above SATURATED_SHARE the server is saturated: jobs then start at most `busyRate` per second (the floor
 * that keeps deliveries moving) until the share falls below CALM_SHARE; otherwise they start at once.
 * Moderate traffic leaves gaps between requests, so it never holds jobs back; only a load that keeps the
 * server busy all the time does, and its backlog drains as soon as the load eases.
 */

const SAMPLE_MS = 100;
const SATURATED_SHARE = 0.9;
/** Saturation ends only below this share, so a load hovering near the threshold does not release jobs in bursts. */
const CALM_SHARE = 0.75;

export class ForegroundLoad {
  readonly #busyRate: number;
  #inFlight = 0;
  #busySince = 0;
  #busyMs = 0;
  #windowStart = 0;
  #saturated = false;
  #tokens = 0;
  #waiting: Array<() => void> = [];
  #sampler: NodeJS.Timeout | null = null;
  #dispenser: NodeJS.Timeout | null = null;
  #listeners = new Set<(saturated: boolean) => void>();

  /** `busyRate`: jobs per second that still start while the server is saturated (JOBS_BUSY_RATE). */
  constructor(busyRate: number) {
    this.#busyRate = busyRate;
  }

  get saturated(): boolean {
    return this.#saturated;
  }

  /** A request began. Sampling runs only while requests come, so an idle process has no timer. */
  enter(): void {
    const now = performance.now();
    if (this.#inFlight++ === 0) this.#busySince = now;
    if (!this.#sampler) {
      this.#windowStart = now;
      this.#busyMs = 0;
      this.#sampler = setInterval(() => this.#sample(), SAMPLE_MS).unref();
    }
  }

  /** A request ended (answered, failed or aborted). */
  leave(): void {
    if (--this.#inFlight === 0) this.#busyMs += performance.now() - this.#busySince;
  }

  /** Sets the state from elsewhere: the job process hears its serving process's state over IPC. */
  set(saturated: boolean): void {
    if (saturated === this.#saturated) return;
    this.#saturated = saturated;
    for (const listener of this.#listeners) listener(saturated);
    if (saturated) this.#startDispensing();
    else this.#releaseAll();
  }

  /** Calls `listener` whenever the state changes (the serving process forwards it to its job process). */
  onChange(listener: (saturated: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when a job may start: at once unless the server is saturated, else at the busy rate. */
  turn(): Promise<void> {
    if (!this.#saturated) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#startDispensing();
    });
  }

  /** Stops the timers (a process shutting down). */
  close(): void {
    if (this.#sampler) clearInterval(this.#sampler);
    this.#sampler = null;
    this.#releaseAll();
  }

  #sample(): void {
    const now = performance.now();
    if (this.#inFlight > 0) {
      this.#busyMs += now - this.#busySince;
      this.#busySince = now;
    }
    const share = this.#busyMs / Math.max(1, now - this.#windowStart);
    this.#busyMs = 0;
    this.#windowStart = now;
    this.set(this.#saturated ? share >= CALM_SHARE : share >= SATURATED_SHARE);
    if (this.#inFlight === 0 && !this.#saturated && this.#sampler) {
      clearInterval(this.#sampler);
      this.#sampler = null;
    }
  }

  #startDispensing(): void {
    if (this.#dispenser || !this.#saturated || this.#waiting.length === 0) return;
    this.#dispenser = setInterval(() => this.#dispense(), SAMPLE_MS).unref();
  }

  /** While saturated, lets waiting jobs start at the busy rate; a fraction carries over to the next tick. */
  #dispense(): void {
    const perTick = (this.#busyRate * SAMPLE_MS) / 1000;
    this.#tokens = Math.min(this.#tokens + perTick, Math.max(1, perTick));
    while (this.#tokens >= 1 && this.#waiting.length > 0) {
      this.#tokens -= 1;
      this.#waiting.shift()!();
    }
    if (this.#waiting.length === 0 || !this.#saturated) this.#stopDispensing();
  }

  #stopDispensing(): void {
    if (this.#dispenser) clearInterval(this.#dispenser);
    this.#dispenser = null;
  }

  #releaseAll(): void {
    this.#stopDispensing();
    this.#tokens = 0;
    for (const release of this.#waiting.splice(0)) release();
  }
}
