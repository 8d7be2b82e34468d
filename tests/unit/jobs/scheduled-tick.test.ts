import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { scheduledTick } from '../../../server/jobs/scheduled-tick.ts';

/** Schedule ticks are keyed by the cron's occurrence, not the clock (issue 37 item 2). */
describe('scheduledTick', () => {
  const every5s = new Cron('*/5 * * * * *', { paused: true });

  it('is the occurrence a late timer was due for, however late it fires within the interval', () => {
    const due = new Date('2026-11-27T10:00:05.000Z');
    for (const lateMs of [3, 480, 620, 1_700, 4_999]) {
      expect(scheduledTick(every5s, new Date(due.getTime() + lateMs))).toEqual(due);
    }
  });

  it('gives two instances firing around one mark the same key (the clock rounded would not)', () => {
    const early = scheduledTick(every5s, new Date('2026-11-27T10:00:05.004Z'));
    const late = scheduledTick(every5s, new Date('2026-11-27T10:00:05.640Z'));
    expect(late).toEqual(early);
    // What keying by Math.round(now) gave: two keys for one tick, so both instances ran it.
    expect(Math.round(Date.parse('2026-11-27T10:00:05.640Z') / 1000)).not.toBe(Math.round(Date.parse('2026-11-27T10:00:05.004Z') / 1000));
  });

  it('is on the mark when the timer fires on time', () => {
    expect(scheduledTick(every5s, new Date('2026-11-27T10:00:10.000Z'))).toEqual(new Date('2026-11-27T10:00:10.000Z'));
  });
});
