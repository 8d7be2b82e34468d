import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ForegroundLoad } from '../../../server/jobs/foreground-load.ts';

/** How many of `turns` have resolved so far. */
function counter(turns: Array<Promise<void>>): () => number {
  let done = 0;
  for (const turn of turns) void turn.then(() => done++);
  return () => done;
}

/** `times` rounds of `idleMs` with no request in flight, then `busyMs` with one (a request is in flight on entry and on return). */
async function idleThenBusy(load: ForegroundLoad, idleMs: number, busyMs: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    load.leave();
    await vi.advanceTimersByTimeAsync(idleMs);
    load.enter();
    await vi.advanceTimersByTimeAsync(busyMs);
  }
}

describe('ForegroundLoad: background jobs give way to saturating requests', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets jobs start at once while requests leave gaps', async () => {
    const load = new ForegroundLoad(0);
    for (let i = 0; i < 10; i++) {
      load.enter();
      await vi.advanceTimersByTimeAsync(5);
      load.leave();
      await vi.advanceTimersByTimeAsync(5);
    }
    expect(load.saturated).toBe(false);
    const done = counter([load.turn(), load.turn()]);
    await vi.advanceTimersByTimeAsync(0);
    expect(done()).toBe(2);
    load.close();
  });

  it('holds jobs while requests are always in flight, lets busyRate a second through, and the rest once the load ends', async () => {
    const load = new ForegroundLoad(20);
    const changes: boolean[] = [];
    load.onChange((saturated) => changes.push(saturated));
    load.enter();
    await vi.advanceTimersByTimeAsync(100);
    expect(load.saturated).toBe(true);
    const done = counter(Array.from({ length: 10 }, () => load.turn()));
    await vi.advanceTimersByTimeAsync(0);
    expect(done()).toBe(0);
    // 20 a second: two per 100 ms sample.
    await vi.advanceTimersByTimeAsync(200);
    expect(done()).toBe(4);
    load.leave();
    await vi.advanceTimersByTimeAsync(100);
    expect(load.saturated).toBe(false);
    expect(done()).toBe(10);
    expect(changes).toEqual([true, false]);
    load.close();
  });

  it('stays saturated while the busy share stays above the calm threshold (no bursts near 90 %)', async () => {
    const load = new ForegroundLoad(0);
    load.enter();
    await vi.advanceTimersByTimeAsync(100);
    expect(load.saturated).toBe(true);
    const done = counter([load.turn()]);
    // 80 % busy: below the 90 % that starts saturation, above the 75 % that ends it.
    await idleThenBusy(load, 20, 80, 10);
    expect(load.saturated).toBe(true);
    expect(done()).toBe(0);
    // 50 % busy: calm again, and the job starts.
    await idleThenBusy(load, 50, 50, 1);
    expect(load.saturated).toBe(false);
    expect(done()).toBe(1);
    load.leave();
    load.close();
  });

  it('with busyRate 0 holds every job until the load ends', async () => {
    const load = new ForegroundLoad(0);
    load.enter();
    await vi.advanceTimersByTimeAsync(100);
    const done = counter([load.turn()]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done()).toBe(0);
    load.leave();
    await vi.advanceTimersByTimeAsync(100);
    expect(done()).toBe(1);
    load.close();
  });

  it('a rate below 10 a second still lets jobs through (fractions carry over)', async () => {
    const load = new ForegroundLoad(2);
    load.enter();
    await vi.advanceTimersByTimeAsync(100);
    const done = counter([load.turn(), load.turn()]);
    await vi.advanceTimersByTimeAsync(400);
    expect(done()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(done()).toBe(1);
    load.leave();
    load.close();
  });

  it('follows a state set from elsewhere (the job process hears it from its server)', async () => {
    const load = new ForegroundLoad(0);
    load.set(true);
    const done = counter([load.turn()]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done()).toBe(0);
    load.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done()).toBe(1);
    load.close();
  });
});
