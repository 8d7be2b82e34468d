import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import type { Accountability } from '../../auth/accountability.ts';
import { exportContentType, type ExportFormat } from './export-format.ts';
import type { Query } from '../../query/types.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { ItemsService } from '../items/items-service.ts';
import { exportPages, type ExportPaging } from './export-pages.ts';
import { csvColumns, renderPages } from './render-pages.ts';

type Item = Record<string, unknown>;

/** An export under way: its content type and its bytes, produced as they are read. */
export interface ExportStream {
  type: string;
  body: Readable;
}

/** Field types whose values can be JSON objects, which CSV spreads over one column per key. */
function holdsObjects(collection: CollectionOverview, name: string): boolean {
  const field = collection.fields[name];
  return !field || field.type === 'json' || field.type.startsWith('geometry') || field.special.includes('cast-json');
}

/**
 * True when every item of the read has the same CSV columns, so the first item names them: no relation
 * read into (`author.name` is an object, or null, per item) and no field that can hold an object (JSON,
 * geometry). System collections may add per-item values in Node (revision copies), and aggregates name
 * their own columns, so neither qualifies.
 */
function sameColumnsForEveryItem(collection: CollectionOverview, query: Query): boolean {
  if (collection.system || query.aggregate || query.groupBy) return false;
  const fields = query.fields ?? ['*'];
  if (fields.some((path) => path.includes('.'))) return false;
  const named = fields.flatMap((path) => (path === '*' ? Object.keys(collection.fields) : path.includes('(') ? [] : [path]));
  return [...named, ...Object.values(query.alias ?? {})].every((name) => !holdsObjects(collection, name));
}

/**
 * Exports the items `query` reads as `format`, streamed: pages of `batchSize` items are read one after
 * another and each is rendered as it arrives, so memory holds a page, never the table (docs/files.md
 * "Import and export"). Every page is read in one REPEATABLE READ, READ ONLY transaction: the export is one
 * snapshot, as the single read it replaces was, whatever is written meanwhile. The first page is read
 * before this resolves, so a query the caller may not run fails here as any read does; a later failure
 * (the database going away) errors the stream, and the transaction ends either way.
 */
export async function openExport(app: AppContext, accountability: Accountability, collection: string, query: Query, format: ExportFormat): Promise<ExportStream> {
  const schema = await app.schema.get();
  const transaction = await snapshotTransaction(app.database.kysely());
  const paging: ExportPaging = { batchSize: app.config.query.exportBatchSize, maxLimit: app.config.query.limitMax, defaultLimit: app.config.query.limitDefault };
  const read = () => exportPages(new ItemsService(collection, { ...app.servicesContext(accountability, transaction.db), schema }), query, paging);
  try {
    const pages = read();
    const first = await pages.next();
    const firstItems: Item[] = first.done ? [] : first.value;
    let source: AsyncIterable<Item[]> = withFirst(firstItems, pages);
    let columns: string[] = [];
    if (format === 'csv' && sameColumnsForEveryItem(schema.collections[collection]!, query)) columns = await csvColumns([firstItems.slice(0, 1)]);
    else if (format === 'csv') {
      // A column may first appear on any item: a first pass over the same snapshot finds them all.
      columns = await csvColumns(source);
      source = read();
    }
    const body = Readable.from(finishing(renderPages(source, format, columns), transaction), { objectMode: true, highWaterMark: 1 });
    // A stream destroyed before its first read never runs the generator's `finally`: end the transaction on close too.
    body.once('close', () => void transaction.end());
    return { type: exportContentType(format), body };
  } catch (error) {
    await transaction.end();
    throw error;
  }
}

/** The pages of `rest`, after `first` already taken from it. */
async function* withFirst(first: Item[], rest: AsyncIterator<Item[]>): AsyncGenerator<Item[]> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** A transaction held open until `end` is called, and what reads in it. */
interface HeldTransaction {
  db: Kysely<any>;
  /** Ends it (nothing was written: a rollback) and gives its connection back, also when the connection died. */
  end(): Promise<void>;
}

/**
 * Opens a REPEATABLE READ, READ ONLY transaction that outlives this call. Kysely's own transaction() gives
 * its connection back whatever happens (its startTransaction() does not when the rollback fails on a
 * connection the server closed, and the pool never ends), so the work is a promise that `end` settles.
 */
function snapshotTransaction(db: Kysely<any>): Promise<HeldTransaction> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const held = new Promise<void>((ended) => (release = ended));
    let opened = false;
    const finished: Promise<void> = db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        opened = true;
        resolve({
          db: trx,
          end: async () => {
            release();
            await finished;
          },
        });
        await held;
        // Rolled back rather than committed: the work fails on purpose.
        throw ROLLBACK;
      })
      .catch((error: unknown) => {
        if (!opened) reject(error);
      });
  });
}

const ROLLBACK = new Error('export finished');

/** The chunks of `chunks`, ending the read-only transaction once they end, fail or are no longer wanted. */
async function* finishing(chunks: AsyncGenerator<string>, transaction: HeldTransaction): AsyncGenerator<string> {
  try {
    yield* chunks;
  } finally {
    await transaction.end();
  }
}
