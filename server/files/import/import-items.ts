import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../../app-context.ts';
import type { Accountability } from '../../auth/accountability.ts';
import { InvalidPayloadError, isTesseraError } from '../../errors.ts';
import { sql } from 'kysely';
import { resolveAccess } from '../../permissions/access.ts';
import { ItemsService } from '../../services/items/items-service.ts';
import { readMultipart } from '../upload/read-multipart.ts';
import { importFormat, importRows } from './import-rows.ts';

/** Rows created per createMany call; all of them are still in the one transaction. */
const BATCH_SIZE = 200;

/** Adds the source line to an error, so a client can find the row that failed. */
function atLine(error: unknown, line: number): unknown {
  if (!isTesseraError(error)) return error;
  if (!error.message.startsWith('Line ')) error.message = `Line ${line}: ${error.message}`;
  error.extensions.line ??= line;
  return error;
}

/**
 * `/utils/import/:collection`: creates items from an uploaded CSV, JSON or NDJSON file, streamed, in one
 * transaction through the items service as the caller (permissions, validation and presets apply). The
 * first failing row rolls everything back and is reported with its line. Returns how many were created.
 */
export async function importItems(app: AppContext, accountability: Accountability, collection: string, req: IncomingMessage): Promise<number> {
  const schema = await app.schema.get();
  // Refuse unknown collections and callers without create permission before reading the body.
  new ItemsService(collection, { ...app.servicesContext(accountability), schema });
  (await resolveAccess(app.servicesContext(accountability), schema))?.require(collection, 'create');
  const overview = schema.collections[collection]!;
  let created = 0;
  await app.database
    .kysely()
    .transaction()
    .execute(async (trx) => {
      const service = new ItemsService(collection, { ...app.servicesContext(accountability, trx), schema });
      const files = await readMultipart(req, {
        maxFiles: 1,
        maxFieldSize: 1024,
        onFile: async (part) => {
          const format = importFormat(part.declaredType, part.filename);
          let batch: Array<{ line: number; data: Record<string, unknown> }> = [];
          const flush = async () => {
            if (batch.length === 0) return;
            await sql`savepoint tessera_import_batch`.execute(trx);
            try {
              await service.createMany(batch.map((row) => row.data));
            } catch (error) {
              // Which row of the batch failed: its rows are retried one by one to find it.
              await sql`rollback to savepoint tessera_import_batch`.execute(trx);
              throw await locateFailure(service, batch, error);
            }
            created += batch.length;
            batch = [];
          };
          for await (const row of importRows(part.stream, format, overview, app.config.files.maxUploadSize)) {
            batch.push(row);
            if (batch.length >= BATCH_SIZE) await flush();
          }
          await flush();
        },
      });
      if (files.files === 0) throw new InvalidPayloadError('Send the rows as a file part (CSV, JSON or NDJSON).', { field: 'file' });
    });
  return created;
}

/**
 * Replays a failed batch row by row (after rolling it back) so the first failing row is known, and
 * returns its error with the line. The import is rolled back either way.
 */
async function locateFailure(service: ItemsService, batch: Array<{ line: number; data: Record<string, unknown> }>, batchError: unknown): Promise<unknown> {
  for (const row of batch) {
    try {
      await service.createMany([row.data]);
    } catch (error) {
      return atLine(error, row.line);
    }
  }
  return batchError;
}
