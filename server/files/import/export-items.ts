import { Readable } from 'node:stream';
import * as yup from 'yup';
import type { AppContext } from '../../app-context.ts';
import type { Accountability } from '../../auth/accountability.ts';
import { EXPORT_FORMATS, renderExport, type ExportFormat } from '../../controllers/export-format.ts';
import { parseQuery } from '../../query/parse-query.ts';
import { ItemsService, type ItemKey } from '../../services/items/items-service.ts';
import { validatePayload } from '../../services/validate-payload.ts';
import { FilesService } from '../files-service.ts';

const exportSchema = yup.object({
  query: yup.object().default({}),
  format: yup.string().oneOf([...EXPORT_FORMATS], `format must be one of: ${EXPORT_FORMATS.join(', ')}`).default('csv'),
  file: yup.object().default({}),
});

/**
 * `/utils/export/:collection`: reads items with a query (as the caller; every item unless the query sets
 * a limit) and stores them as a CSV, JSON or YAML file in files, with `file` as its fields (title,
 * folder, …). Returns the new file's id.
 */
export async function exportItems(app: AppContext, accountability: Accountability, collection: string, body: unknown): Promise<ItemKey> {
  const { query, format, file } = validatePayload(exportSchema, body ?? {});
  const schema = await app.schema.get();
  const service = new ItemsService(collection, { ...app.servicesContext(accountability), schema });
  const parsed = parseQuery({ limit: -1, ...query }, { maxLimit: app.config.query.limitMax ?? undefined });
  const { data } = await service.readByQuery(parsed);
  const rendered = renderExport(data, format as ExportFormat);
  const filename = `${collection}-${new Date().toISOString().slice(0, 10)}.${format}`;
  return new FilesService(app, accountability).createFromStream(Readable.from([Buffer.from(rendered.body)]), {
    filename,
    declaredType: rendered.type,
    payload: { title: `Export of ${collection}`, ...(file as Record<string, unknown>) },
    field: 'file',
  });
}
