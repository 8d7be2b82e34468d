import { describe, expect, it } from 'vitest';
import { MAX_SUGGESTIONS, readSuggestions, suggestionUrl, valueAtPath } from '../../../server/autocomplete/autocomplete-suggestions.ts';

describe('autocomplete suggestions', () => {
  it('fills {{value}} URL-encoded, spaces inside the braces allowed', () => {
    expect(suggestionUrl('https://x.test/s?q={{value}}&again={{ value }}', 'São & co')).toBe('https://x.test/s?q=S%C3%A3o%20%26%20co&again=S%C3%A3o%20%26%20co');
  });

  it('reads dot paths, own properties only', () => {
    expect(valueAtPath({ a: { b: [{ c: 1 }] } }, 'a.b.0.c')).toBe(1);
    expect(valueAtPath({ a: 1 }, '')).toEqual({ a: 1 });
    expect(valueAtPath({}, 'constructor')).toBeUndefined();
  });

  it('reads text and value of each result, a missing one falling back to the other, and caps the list', () => {
    const data = { result: { items: [{ name: 'Lisboa', code: 'LIS' }, { name: 'Porto' }, { code: 'FAO' }, { other: true }, 'plain'] } };
    expect(readSuggestions(data, { resultsPath: 'result.items', textPath: 'name', valuePath: 'code' })).toEqual([
      { text: 'Lisboa', value: 'LIS' },
      { text: 'Porto', value: 'Porto' },
      { text: 'FAO', value: 'FAO' },
    ]);
    expect(readSuggestions(['a', 'b'], {})).toEqual([
      { text: 'a', value: 'a' },
      { text: 'b', value: 'b' },
    ]);
    expect(readSuggestions({ not: 'a list' }, { resultsPath: 'not' })).toEqual([]);
    expect(readSuggestions(Array.from({ length: 80 }, (_, index) => String(index)), {})).toHaveLength(MAX_SUGGESTIONS);
  });
});
