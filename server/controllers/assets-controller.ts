import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, RangeNotSatisfiableError } from '../errors.ts';
import { assetCacheControl, assetEtag } from '../files/assets/asset-caching.ts';
import { parseByteRange } from '../files/assets/byte-range.ts';
import { runTransform } from '../files/assets/run-transform.ts';
import { cachedTransform, transformCacheKey, type AssetBody } from '../files/assets/transform-cache.ts';
import { assetSettings, resolveTransform } from '../files/assets/transform-policy.ts';
import { OUTPUT_TYPES } from '../files/assets/negotiate-format.ts';
import { filesRuntime } from '../files/files-runtime.ts';
import { isTransformableImage } from '../files/metadata/extract-metadata.ts';
import { ItemsService } from '../services/items/items-service.ts';
import { SETTINGS_ID } from '../services/settings-service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an asset response needs to know about its file. */
interface FileRow {
  id: string;
  storage: string;
  filename_disk: string | null;
  filename_download: string;
  type: string | null;
  filesize: string | number | null;
  width: number | null;
  height: number | null;
  focal_point_x: number | null;
  focal_point_y: number | null;
  modified_on: Date | string;
}

/** Writes the body (or the requested range of it) with the caching headers every asset response carries. */
async function respond(ctx: Context, body: AssetBody, headers: { type: string; etag: string; filename: string; cacheControl: string; vary?: string }): Promise<void> {
  const range = parseByteRange(ctx.get('Range') || undefined, body.size);
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${body.size}`);
    throw new RangeNotSatisfiableError(`The range "${ctx.get('Range')}" is outside the file's ${body.size} bytes.`, { field: 'Range', size: body.size });
  }
  ctx.status = 200;
  if (ctx.query.download !== undefined) ctx.attachment(headers.filename);
  else ctx.attachment(headers.filename, { type: 'inline' });
  ctx.type = headers.type;
  ctx.etag = headers.etag;
  ctx.set('Cache-Control', headers.cacheControl);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Opened directly, an uploaded HTML or SVG file must not run scripts on this origin.
  ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
  if (headers.vary) ctx.vary(headers.vary);
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${body.size}`);
  }
  const length = range ? range.end - range.start + 1 : body.size;
  // HEAD answers with the headers alone: no stream is opened.
  if (ctx.method === 'HEAD') {
    ctx.length = length;
    return;
  }
  ctx.body = await body.read(range ?? undefined);
  ctx.length = length;
}

/**
 * `GET /assets/:id`: a file's content (Range, HEAD, `download`) or a transformed image (width, height,
 * fit, quality, withoutEnlargement, format, transforms, or a preset `key`), cached in storage. Needs read
 * permission on the file, as the caller (the public role included), except for the project's own images.
 * Clients revalidate unless the URL names the file's version (`?modified=`): asset-caching.ts.
 */
/** Settings columns naming files anyone may read. */
const PUBLIC_PROJECT_IMAGES = ['project_logo', 'public_foreground', 'public_background', 'public_favicon'] as const;

export function assetsController(app: AppContext): Router {
  const router = new Router();
  const runtime = filesRuntime(app);

  router.get('/assets/:id{/:filename}', async (ctx) => {
    const id = ctx.params.id!;
    if (!UUID.test(id)) throw new ForbiddenError();
    const schema = await app.schema.get();
    const db = app.database.kysely();
    const accountability = ctx.state.accountability;
    // The caller's read permission (administrators have it), the storage columns the caller may not be
    // allowed to read, and the asset settings: three independent queries, run together.
    const [refusal, file, settingsRow] = await Promise.all([
      accountability.admin
        ? null
        : new ItemsService('tessera_files', { ...app.servicesContext(accountability), schema }).readOne(id, { fields: ['id'] }).then(
            () => null,
            (error: unknown) => error,
          ),
      db
        .selectFrom('tessera_files')
        .select(['id', 'storage', 'filename_disk', 'filename_download', 'type', 'filesize', 'width', 'height', 'focal_point_x', 'focal_point_y', 'modified_on'])
        .where('id', '=', id)
        .executeTakeFirst() as Promise<FileRow | undefined>,
      db.selectFrom('tessera_settings').select(['storage_asset_transform', 'storage_asset_presets', ...PUBLIC_PROJECT_IMAGES]).where('id', '=', SETTINGS_ID).executeTakeFirst(),
    ]);
    // The project's own images (logo, sign-in page images, favicon) are public: the sign-in page and
    // mails show them before anyone has signed in.
    if (refusal && !PUBLIC_PROJECT_IMAGES.some((column) => settingsRow?.[column] === id)) throw refusal;
    if (!file || !file.filename_disk) throw new ForbiddenError();
    const driver = runtime.storage.get(file.storage);
    const cacheControl = assetCacheControl(accountability, ctx.query, file.modified_on, Math.floor(app.config.assets.cacheTtlMs / 1000));
    const settings = assetSettings(settingsRow);
    const transform = resolveTransform(ctx.query, settings, { type: file.type ?? '', focalPointX: file.focal_point_x, focalPointY: file.focal_point_y }, ctx.get('Accept'), app.config.assets.transformMaxDimension);

    if (!transform || !isTransformableImage(file.type)) {
      const stat = await driver.stat(file.filename_disk);
      if (!stat) throw new ForbiddenError('The file has no stored content.');
      const etag = assetEtag({ filename_disk: file.filename_disk, modified_on: file.modified_on }, stat.size);
      await respond(ctx, { size: stat.size, read: (range) => driver.read(file.filename_disk!, range) }, { type: file.type ?? 'application/octet-stream', etag, filename: file.filename_download, cacheControl });
      return;
    }

    const key = transformCacheKey({ id: file.id, filename_disk: file.filename_disk, filesize: file.filesize }, transform);
    const { body } = await cachedTransform(runtime, driver, key, async () => {
      const input = driver.localPath ? driver.localPath(file.filename_disk!) : Buffer.concat(await (await driver.read(file.filename_disk!)).toArray());
      return runTransform(input, transform, { width: file.width, height: file.height }, { maxDimension: app.config.assets.transformMaxDimension, timeoutMs: app.config.assets.transformTimeoutMs });
    });
    const filename = file.filename_download.replace(/\.[^.]*$/, '') + `.${transform.format === 'jpeg' ? 'jpg' : transform.format}`;
    const negotiated = ctx.query.key === undefined && (ctx.query.format === undefined || ctx.query.format === 'auto');
    await respond(ctx, body, { type: OUTPUT_TYPES[transform.format], etag: assetEtag({ filename_disk: file.filename_disk, modified_on: file.modified_on }, body.size, key), filename, cacheControl, vary: negotiated || ctx.query.key !== undefined ? 'Accept' : undefined });
  });

  return router;
}
