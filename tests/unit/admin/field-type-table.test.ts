import { describe, expect, it } from 'vitest';
import { FIELD_TYPE_TABLE as ADMIN_TABLE, fieldTypeTraits, type FieldTypeName } from '../../../admin/src/content/field-type-table.ts';
import { FIELD_TYPE_TABLE as SERVER_TABLE } from '../../../server/schema/field-type-table.ts';
import { FIELD_TYPES } from '../../../server/schema/types.ts';

const adminTypes = Object.keys(ADMIN_TABLE) as FieldTypeName[];

describe('the admin and server field-type tables', () => {
  it('list exactly the same type names, the server table every type the server has', () => {
    expect([...adminTypes].sort()).toEqual(Object.keys(SERVER_TABLE).sort());
    expect(Object.keys(SERVER_TABLE).sort()).toEqual([...FIELD_TYPES].sort());
  });

  it('give every type the same value kind and column size', () => {
    for (const type of adminTypes) {
      expect(ADMIN_TABLE[type].value, type).toBe(SERVER_TABLE[type].value);
      expect(ADMIN_TABLE[type].size, type).toBe(SERVER_TABLE[type].size);
    }
  });

  it('read a type the admin does not know as alias: presence filters, no picker group', () => {
    expect(fieldTypeTraits('inet')).toBe(ADMIN_TABLE.alias);
    expect(fieldTypeTraits('toString')).toBe(ADMIN_TABLE.alias);
  });
});
