import { stringify as toCsv } from 'csv-stringify/sync';
import { parse as toXml } from 'js2xmlparser';
import { stringify as toYaml } from 'yaml';
import { InvalidQueryError } from '../../errors.ts';

/** Formats `?export=` can ask for. */
export const EXPORT_FORMATS = ['json', 'csv', 'yaml', 'xml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = { json: 'application/json', csv: 'text/csv', yaml: 'text/yaml', xml: 'text/xml' };

/** The format `value` names; anything else is an INVALID_QUERY naming `export`. */
export function exportFormat(value: unknown): ExportFormat {
  if (typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new InvalidQueryError(`export must be one of: ${EXPORT_FORMATS.join(', ')}.`, { field: 'export' });
}

/** A CSV row: nested objects become dot-path columns (`author.name`); lists become JSON text. */
export function flatten(item: Record<string, unknown>, prefix = '', into: Record<string, unknown> = Object.create(null)): Record<string, unknown> {
  for (const [key, value] of Object.entries(item)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value as Record<string, unknown>, path, into);
    else into[path] = Array.isArray(value) ? JSON.stringify(value) : value;
  }
  return into;
}

/** The content type of an export in `format`. */
export function exportContentType(format: ExportFormat): string {
  return CONTENT_TYPES[format];
}

/** CSV lines for flattened rows under `columns`, the header line first when `header`. */
export function renderCsvRows(rows: Record<string, unknown>[], columns: string[], header: boolean): string {
  // escape_formulas: text cells starting with =, +, -, @, tab or CR (and their full-width forms) get a
  // leading ' so a spreadsheet shows them instead of running them (OWASP CSV injection); numbers stay as they are.
  return toCsv(rows, { header, columns, escape_formulas: true, cast: { boolean: (value) => String(value), date: (value) => value.toISOString() } });
}

/** Renders items as a downloadable file body with its content type. */
export function renderExport(items: Record<string, unknown>[], format: ExportFormat): { body: string; type: string } {
  switch (format) {
    case 'json':
      return { body: JSON.stringify(items, null, 2), type: CONTENT_TYPES.json };
    case 'yaml':
      return { body: toYaml(items), type: CONTENT_TYPES.yaml };
    case 'xml':
      // Directus's shape (the same library): <data> holding one <data> element per item, a list as repeated elements.
      return { body: toXml('data', items), type: CONTENT_TYPES.xml };
    case 'csv': {
      const rows = items.map((item) => flatten(item));
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return { body: renderCsvRows(rows, columns, true), type: CONTENT_TYPES.csv };
    }
  }
}
