import { parse as parseCsv } from 'csv-parse';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { ContentTooLargeError, InvalidPayloadError, UnsupportedMediaTypeError } from '../../errors.ts';
import { fieldTypeTraits, type ValueKind } from '../../schema/field-type-table.ts';
import type { CollectionOverview } from '../../schema/overview.ts';

/** Formats /utils/import reads. */
export type ImportFormat = 'csv' | 'json' | 'ndjson';

/** One row to create and the line (CSV, NDJSON) or position (JSON) it came from. */
export interface ImportRow {
  line: number;
  data: Record<string, unknown>;
}

/** The format of an uploaded part, from its declared type or its file name. */
export function importFormat(declaredType: string, filename: string): ImportFormat {
  const type = declaredType.split(';')[0]!.trim().toLowerCase();
  const extension = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (type === 'text/csv' || extension === 'csv') return 'csv';
  if (type === 'application/x-ndjson' || extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  if (type === 'application/json' || extension === 'json') return 'json';
  throw new UnsupportedMediaTypeError('Import a CSV (text/csv), JSON (application/json, an array of objects) or NDJSON (application/x-ndjson) file.', { field: 'file' });
}

const asText = (text: string): unknown => text;
const asNumber = (text: string): unknown => (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text.trim()) ? Number(text) : text);

/**
 * A CSV cell as a value of each value kind (server/schema/field-type-table.ts). bigInteger and decimal
 * stay text, so no digit is lost to a float; the items service checks them.
 */
const FROM_CELL = {
  integer: asNumber,
  float: asNumber,
  boolean: (text) => (['true', '1'].includes(text.toLowerCase()) ? true : ['false', '0'].includes(text.toLowerCase()) ? false : text),
  json: (text, name, line) => {
    try {
      return JSON.parse(text);
    } catch {
      throw new InvalidPayloadError(`Line ${line}: "${name}" must be JSON.`, { field: name, line });
    }
  },
  bigInteger: asText,
  decimal: asText,
  csv: asText,
  string: asText,
  text: asText,
  hash: asText,
  date: asText,
  time: asText,
  dateTime: asText,
  uuid: asText,
  geometry: asText,
  alias: asText,
} satisfies Record<ValueKind, (text: string, name: string, line: number) => unknown>;

/**
 * A CSV cell as a value of its field: empty means null, numbers and booleans are parsed, JSON fields are
 * parsed as JSON. Text the field cannot take is left as is for the items service to refuse by name.
 */
function castCell(collection: CollectionOverview, name: string, text: string, line: number): unknown {
  const field = collection.fields[name];
  if (!field) return text;
  if (text === '') return null;
  return FROM_CELL[fieldTypeTraits(field.type).value](text, name, line);
}

function asObject(value: unknown, line: number): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidPayloadError(`Line ${line}: each item must be a JSON object.`, { line });
  return value as Record<string, unknown>;
}

/**
 * Reads rows from an import stream. CSV and NDJSON are parsed as they stream; a JSON array is read
 * whole first (bounded by `maxSize`), since a JSON value is only known when it ends.
 */
export async function* importRows(stream: Readable, format: ImportFormat, collection: CollectionOverview, maxSize: number): AsyncGenerator<ImportRow> {
  if (format === 'csv') {
    const parser = stream.pipe(parseCsv({ columns: true, info: true, bom: true, skip_empty_lines: true, trim: false }));
    stream.once('error', (error) => parser.destroy(error));
    try {
      for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number }; record: Record<string, string> }>) {
        // Null-prototype: a `__proto__` column stays a column (refused by name), not the row's prototype.
        const data: Record<string, unknown> = Object.create(null);
        for (const [name, text] of Object.entries(record)) data[name] = castCell(collection, name, text, info.lines);
        yield { line: info.lines, data };
      }
    } catch (error) {
      const csvError = error as { code?: string; lines?: number; message: string };
      if (csvError.code?.startsWith('CSV_')) throw new InvalidPayloadError(`Line ${csvError.lines ?? '?'}: ${csvError.message}`, { field: 'file', line: csvError.lines });
      throw error;
    }
    return;
  }
  if (format === 'ndjson') {
    let line = 0;
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new InvalidPayloadError(`Line ${line}: not valid JSON.`, { field: 'file', line });
      }
      yield { line, data: asObject(value, line) };
    }
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxSize) throw new ContentTooLargeError(`The import is larger than the limit of ${maxSize} bytes.`, { field: 'file', limit: maxSize });
    chunks.push(chunk);
  }
  let items: unknown;
  try {
    items = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new InvalidPayloadError(`The file is not valid JSON: ${(error as Error).message}`, { field: 'file' });
  }
  if (!Array.isArray(items)) throw new InvalidPayloadError('A JSON import must be an array of objects.', { field: 'file' });
  for (let index = 0; index < items.length; index++) yield { line: index + 1, data: asObject(items[index], index + 1) };
}
