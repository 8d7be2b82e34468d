import { InvalidPayloadError } from '../../errors.ts';

/** Items one write (a request's transaction) has created, updated or deleted so far, nested writes included. */
export interface MutationCount {
  count: number;
}

/**
 * Adds `count` items to the write's tally and refuses the write past MAX_BATCH_MUTATION, in Directus's
 * words (its clients and test suite match on them; issue 31). The caller's transaction rolls back.
 */
export function countMutations(tally: MutationCount | undefined, max: number | null, count: number): void {
  if (!tally || max === null) return;
  tally.count += count;
  if (tally.count > max) throw new InvalidPayloadError(`Invalid payload. Exceeded max batch mutation limit of ${max}.`);
}
