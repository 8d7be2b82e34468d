import { describe, expect, it } from 'vitest';
import type { FieldOverview } from '../../../server/schema/overview.ts';
import { fieldValueSchema } from '../../../server/services/items/field-value-schema.ts';

const field = (type: string) => ({ field: 'f', type }) as unknown as FieldOverview;

describe('fieldValueSchema', () => {
  it('leaves null to the nullability check for every type, custom-tested ones included', () => {
    for (const type of ['string', 'integer', 'bigInteger', 'decimal', 'csv', 'json', 'uuid', 'boolean']) {
      expect(fieldValueSchema(field(type)).isValidSync(null), type).toBe(true);
    }
  });

  it('still refuses wrong values of those types', () => {
    expect(fieldValueSchema(field('bigInteger')).isValidSync('x')).toBe(false);
    expect(fieldValueSchema(field('decimal')).isValidSync('1.2.3')).toBe(false);
    expect(fieldValueSchema(field('csv')).isValidSync({ a: 1 })).toBe(false);
  });
});
