import { expect } from 'vitest';

/** Runs `work` and returns the error it throws, which must be a `type` (fails the test if nothing is thrown). */
export function thrown<T extends Error>(work: () => unknown, type: abstract new (...args: never[]) => T): T {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as T;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}
