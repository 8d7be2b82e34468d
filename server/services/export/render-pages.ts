import { parse as toXml } from 'js2xmlparser';
import { stringify as toYaml } from 'yaml';
import { flatten, renderCsvRows, renderExport, type ExportFormat } from './export-format.ts';

type Item = Record<string, unknown>;

const XML_OPEN = "<?xml version='1.0'?>\n<data>";
const XML_CLOSE = '\n</data>';

/** A page's items as the elements inside XML's `<data>` root, exactly as renderExport writes them for the whole list. */
function xmlElements(items: Item[]): string {
  const document = toXml('data', items);
  if (!document.startsWith(XML_OPEN) || !document.endsWith(XML_CLOSE)) throw new Error('js2xmlparser wrote an XML document of an unexpected shape.');
  return document.slice(XML_OPEN.length, -XML_CLOSE.length);
}

/** A page's items as elements of JSON's pretty-printed top-level array (two spaces deeper than on their own). */
function jsonElements(items: Item[], first: boolean): string {
  let text = '';
  items.forEach((item, index) => {
    text += (first && index === 0 ? '[\n  ' : ',\n  ') + JSON.stringify(item, null, 2).replaceAll('\n', '\n  ');
  });
  return text;
}

/**
 * Renders pages of items as they arrive, into the very bytes renderExport writes for all of them at once:
 * JSON's brackets, XML's root and CSV's header once, YAML's list items page by page. CSV needs its
 * `columns` (every dot path of every row, in order of first appearance) before the first line.
 */
export async function* renderPages(pages: AsyncIterable<Item[]>, format: ExportFormat, columns: string[] = []): AsyncGenerator<string> {
  let any = false;
  for await (const items of pages) {
    if (items.length === 0) continue;
    const first = !any;
    any = true;
    switch (format) {
      case 'json':
        yield jsonElements(items, first);
        break;
      case 'yaml':
        yield toYaml(items);
        break;
      case 'xml':
        yield (first ? XML_OPEN : '') + xmlElements(items);
        break;
      case 'csv':
        yield renderCsvRows(items.map((item) => flatten(item)), columns, first);
        break;
    }
  }
  if (!any) yield renderExport([], format).body;
  else if (format === 'json') yield '\n]';
  else if (format === 'xml') yield XML_CLOSE;
}

/** CSV's columns for pages of items: every dot path of every row, in order of first appearance (as renderExport orders them). */
export async function csvColumns(pages: Iterable<Item[]> | AsyncIterable<Item[]>): Promise<string[]> {
  const columns = new Set<string>();
  for await (const items of pages) for (const item of items) for (const column of Object.keys(flatten(item))) columns.add(column);
  return [...columns];
}
