import { describe, expect, it } from 'vitest';
import { fieldTypeOf, isSearchable, parseColumnDefault } from '../../../server/schema/column-types.ts';

describe('fieldTypeOf', () => {
  it.each([
    ['varchar', 'string'],
    ['text', 'text'],
    ['int4', 'integer'],
    ['int8', 'bigInteger'],
    ['float8', 'float'],
    ['float4', 'float'],
    ['numeric', 'decimal'],
    ['bool', 'boolean'],
    ['date', 'date'],
    ['time', 'time'],
    ['timestamp', 'dateTime'],
    ['timestamptz', 'timestamp'],
    ['json', 'json'],
    ['jsonb', 'json'],
    ['uuid', 'uuid'],
  ])('maps %s to %s', (udt, type) => {
    expect(fieldTypeOf(udt, [])).toBe(type);
  });

  it('lets cast-csv and hash specials decide the type of text columns only', () => {
    expect(fieldTypeOf('text', ['cast-csv'])).toBe('csv');
    expect(fieldTypeOf('varchar', ['hash', 'conceal'])).toBe('hash');
    expect(fieldTypeOf('int4', ['cast-csv'])).toBe('integer');
  });

  it('reads unknown types as text, which search leaves alone', () => {
    expect(fieldTypeOf('inet', [])).toBe('text');
    expect(isSearchable('text', 'inet', false)).toBe(false);
    expect(isSearchable('text', 'text', false)).toBe(true);
    expect(isSearchable('string', 'varchar', true)).toBe(false);
    expect(isSearchable('integer', 'int4', false)).toBe(false);
  });
});

describe('parseColumnDefault', () => {
  it.each([
    ["'draft'::character varying", 'string', 'draft'],
    ["'it''s'::text", 'text', "it's"],
    ['42', 'integer', 42],
    ["'-1'::integer", 'integer', -1],
    ['1.5', 'decimal', '1.5'],
    ["'9007199254740993'::bigint", 'bigInteger', '9007199254740993'],
    ['true', 'boolean', true],
    ['false', 'boolean', false],
    [`'{"a": [1, 2]}'::jsonb`, 'json', { a: [1, 2] }],
    ["'2024-01-31'::date", 'date', '2024-01-31'],
    ['NULL::character varying', 'string', null],
  ] as const)('reads %s as a literal', (raw, type, value) => {
    expect(parseColumnDefault(raw, type, false)).toEqual({ value, generated: false });
  });

  it.each(["nextval('articles_id_seq'::regclass)", 'gen_random_uuid()', 'now()', 'CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'lower(x)'])('marks %s as generated', (raw) => {
    expect(parseColumnDefault(raw, 'string', false)).toEqual({ value: null, generated: true });
  });

  it.each([
    ['CURRENT_TIMESTAMP', 'timestamp'],
    ['now()', 'timestamp'],
    ['LOCALTIMESTAMP', 'dateTime'],
    ['CURRENT_DATE', 'date'],
    ['LOCALTIME', 'time'],
    ['CURRENT_TIMESTAMP(3)', 'timestamp'],
  ] as const)('reads the clock default %s of a %s field as CURRENT_TIMESTAMP', (raw, type) => {
    expect(parseColumnDefault(raw, type, false)).toEqual({ value: 'CURRENT_TIMESTAMP', generated: true });
  });

  it('marks identity columns as generated and no default as none', () => {
    expect(parseColumnDefault(null, 'integer', true)).toEqual({ value: null, generated: true });
    expect(parseColumnDefault(null, 'integer', false)).toEqual({ value: null, generated: false });
  });
});
