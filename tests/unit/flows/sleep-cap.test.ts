import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../../server/flows/operations/sleep.ts';

/** `sleep` waits at most 10 minutes whatever it is asked (docs/automation.md; issue 37 item 1). */
describe('the sleep operation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // sleep reads only its options; the run context is not needed.
  const run = (milliseconds: unknown) => Promise.resolve(sleep({ milliseconds }, undefined as never));

  it('ends after 10 minutes when asked for a day', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = run(86_400_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(599_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('takes what it is asked below the cap, and nothing for a negative or non-numeric value', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = run(1_500).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    for (const value of [-5, 'soon']) {
      let ended = false;
      const quick = run(value).then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(0);
      await quick;
      expect(ended).toBe(true);
    }
  });
});
