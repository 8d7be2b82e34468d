import * as yup from 'yup';
import type { AppContext } from '../../app-context.ts';
import type { Accountability } from '../../auth/accountability.ts';
import { EXPORT_FORMATS, type ExportFormat } from '../../services/export/export-format.ts';
import { openExport } from '../../services/export/export-stream.ts';
import { parseQuery } from '../../query/parse-query.ts';
import type { ItemKey } from '../../services/items/items-service.ts';
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
  const parsed = parseQuery({ limit: -1, ...query }, { maxLimit: app.config.query.limitMax ?? undefined });
  const files = new FilesService(app, accountability);
  // Before the export opens its transaction: a caller who may not create files is refused without reading.
  await files.assertCanCreate();
  const rendered = await openExport(app, accountability, collection, parsed, format as ExportFormat);
  const filename = `${collection}-${new Date().toISOString().slice(0, 10)}.${format}`;
  try {
    // A failure while the stream is stored leaves neither the content nor a file row (createFromStream).
    return await files.createFromStream(rendered.body, {
      filename,
      declaredType: rendered.type,
      payload: { title: `Export of ${collection}`, ...(file as Record<string, unknown>) },
      field: 'file',
    });
  } finally {
    // Whether or not it was read: a destroyed export ends its transaction and gives its connection back.
    rendered.body.destroy();
  }
}
