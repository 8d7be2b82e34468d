import { randomUUID } from 'node:crypto';
import type { ExpectedVersions } from '../services/items/expected-versions.ts';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { eventAccountability } from '../events/event-names.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { resolveAccess } from '../permissions/access.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { ItemsService, type ItemKey, type ItemsContext } from '../services/items/items-service.ts';
import { SETTINGS_ID } from '../services/settings-service.ts';
import { assertClientFields, castFormFields, withServerColumns } from './file-fields.ts';
import { filesRuntime, type FilesRuntime } from './files-runtime.ts';
import { titleFromFilename } from './metadata/extract-metadata.ts';
import { changesPixels, EDITABLE_IMAGE_TYPES, editImage, imageEditSchema, mapPoint } from './edit/edit-image.ts';
import { readMultipart } from './upload/read-multipart.ts';
import { Readable as ReadableStream } from 'node:stream';
import { validatePayload } from '../services/validate-payload.ts';
import { transformsPrefix } from './storage/storage-keys.ts';
import { storeUpload, type StoredContent } from './upload/store-upload.ts';

const FILES = 'tessera_files';
const MAX_FILES_PER_REQUEST = 50;
const MAX_FIELD_SIZE = 64 * 1024;
/** busboy drops a part whose Content-Disposition it cannot read (say a filename* with `%E0%A4%A`), so say so. */
const FILE_PART_MISSING = 'The body has no file part (a part needs a Content-Disposition with a well-formed filename).';

/** A new file's content and the fields the client gave it. */
interface NewFile {
  id: string;
  stored: StoredContent;
  /** Fields the client sent. */
  payload: Record<string, unknown>;
  /** The uploaded file's name. */
  filename: string;
}

/**
 * Uploads, imports, content replacement and deletion of files. Rows are written through the items
 * service with the caller's permissions (widened only to the server-managed columns); content is
 * streamed to the storage location, and removed again whenever the row write fails.
 */
export class FilesService {
  readonly #app: AppContext;
  readonly #accountability: Accountability;
  readonly #runtime: FilesRuntime;
  #context: ItemsContext | null = null;

  constructor(app: AppContext, accountability: Accountability) {
    this.#app = app;
    this.#accountability = accountability;
    this.#runtime = filesRuntime(app);
  }

  /** The items service for tessera_files as the caller. */
  async items(collection = FILES): Promise<ItemsService> {
    return new ItemsService(collection, await this.#itemsContext());
  }

  /** The caller's items service, allowed to write the server-managed columns and the defaults the server filled. */
  async #writer(serverFilled: readonly string[]): Promise<ItemsService> {
    const context = await this.#itemsContext();
    return new ItemsService(FILES, { ...context, access: withServerColumns(context.access ?? null, serverFilled), serverColumns: true });
  }

  /** FORBIDDEN unless the caller may create files (checked before a body is read or a URL fetched). */
  async assertCanCreate(): Promise<void> {
    await this.#require('create');
  }

  /** Stores every file of a multipart body and creates their rows in one transaction; returns their ids. */
  async upload(req: IncomingMessage): Promise<ItemKey[]> {
    await this.#require('create');
    const schema = await this.#app.schema.get();
    const files: NewFile[] = [];
    try {
      await readMultipart(req, {
        maxFiles: MAX_FILES_PER_REQUEST,
        maxFieldSize: MAX_FIELD_SIZE,
        onFile: async (part) => {
          // `storage` sent before the file part picks the location (Directus); it is not otherwise writable.
          const { storage, ...fields } = part.fields;
          const driver = this.#driver(storage);
          const payload = castFormFields(schema.collections[FILES]!, fields);
          assertClientFields(payload);
          const id = randomUUID();
          const stored = await storeUpload(driver, part.stream, { config: this.#app.config, keyBase: id, filename: part.filename, declaredType: part.declaredType, field: part.field });
          files.push({ id, stored, payload, filename: part.filename || id });
        },
      });
      if (files.length === 0) throw new InvalidPayloadError(FILE_PART_MISSING, { field: 'file' });
      const keys = await this.#createRows(files);
      keys.forEach((key, index) => this.#app.events.emit('files.upload', { collection: FILES, keys: [key], payload: { ...files[index]!.payload, filename_download: files[index]!.filename }, accountability: eventAccountability(this.#accountability) }));
      return keys;
    } catch (error) {
      await this.#removeContent(files.map((file) => file.stored));
      throw error;
    }
  }

  /** Stores one file from a stream (an import or an export) and creates its row; returns its id. `source` is consumed or destroyed. */
  async createFromStream(source: Readable, options: { filename: string; declaredType?: string; payload: Record<string, unknown>; field: string }): Promise<ItemKey> {
    const id = randomUUID();
    let stored: StoredContent;
    try {
      await this.#require('create');
      assertClientFields(options.payload);
      stored = await storeUpload(this.#driver(), source, { config: this.#app.config, keyBase: id, filename: options.filename, declaredType: options.declaredType, field: options.field });
    } catch (error) {
      source.destroy();
      throw error;
    }
    try {
      const [key] = await this.#createRows([{ id, stored, payload: options.payload, filename: options.filename }]);
      return key!;
    } catch (error) {
      await this.#removeContent([stored]);
      throw error;
    }
  }

  /** Replaces a file's content (and applies the fields sent before it); the old content goes once the row is updated. */
  async replace(id: string, req: IncomingMessage): Promise<void> {
    const service = await this.items();
    const schema = await this.#app.schema.get();
    // Refuse before reading the body: the caller must be able to update this file.
    await service.normalizeAndCheck([id]);
    const current = await this.#app.database.kysely().selectFrom(FILES).select(['storage', 'filename_disk', 'width', 'height', 'focal_point_x', 'focal_point_y']).where('id', '=', id).executeTakeFirstOrThrow();
    let replacement: { stored: StoredContent; payload: Record<string, unknown> } | null = null;
    let clientSentName = false;
    try {
      await readMultipart(req, {
        maxFiles: 1,
        maxFieldSize: MAX_FIELD_SIZE,
        onFile: async (part) => {
          const payload = castFormFields(schema.collections[FILES]!, part.fields);
          assertClientFields(payload);
          clientSentName = 'filename_download' in payload;
          const driver = this.#driver();
          const stored = await storeUpload(driver, part.stream, {
            config: this.#app.config,
            keyBase: id,
            avoidKey: driver.location === current.storage ? (current.filename_disk as string | null) : null,
            filename: part.filename,
            declaredType: part.declaredType,
            field: part.field,
          });
          replacement = { stored, payload: { ...(part.filename ? { filename_download: part.filename } : {}), ...payload } };
        },
      });
      if (!replacement) throw new InvalidPayloadError(FILE_PART_MISSING, { field: 'file' });
      const { stored, payload } = replacement as { stored: StoredContent; payload: Record<string, unknown> };
      const carried = 'focal_point_x' in payload || 'focal_point_y' in payload ? {} : carriedFocalPoint(current, stored);
      const writer = await this.#writer([...(clientSentName ? [] : ['filename_download']), ...Object.keys(carried)]);
      await writer.updateOne(id, { ...payload, ...stored, ...carried });
    } catch (error) {
      if (replacement) await this.#removeContent([(replacement as { stored: StoredContent }).stored]);
      throw error;
    }
    await this.#dropReplaced(id, current, (replacement as { stored: StoredContent }).stored);
  }

  /**
   * Edits an image's pixels on the server (flip, flop, rotate by quarter turns, crop; SPEC.md §9 image
   * editor) and stores the result as the file's new content under the same id, in its own format: width,
   * height and filesize follow, cached transforms go. The focal point is the one sent, else the old one
   * carried through the edit (null when the crop cuts it away).
   */
  async edit(id: string, body: unknown): Promise<void> {
    const edit = validatePayload(imageEditSchema, body);
    const service = await this.items();
    await service.normalizeAndCheck([id]);
    const current = await this.#app.database
      .kysely()
      .selectFrom(FILES)
      .select(['storage', 'filename_disk', 'filename_download', 'type', 'width', 'height', 'focal_point_x', 'focal_point_y'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const format = EDITABLE_IMAGE_TYPES[current.type as string];
    if (!format || !current.filename_disk) {
      throw new InvalidPayloadError(`Only ${Object.keys(EDITABLE_IMAGE_TYPES).join(', ')} images can be edited; this file is ${current.type ?? 'of no known type'}.`, { field: 'file' });
    }
    if ((edit.focal_point_x == null) !== (edit.focal_point_y == null)) {
      throw new InvalidPayloadError('"focal_point_x" and "focal_point_y" go together.', { field: edit.focal_point_x == null ? 'focal_point_x' : 'focal_point_y' });
    }
    const focal = (point: { x: number; y: number } | null) => ({ focal_point_x: point?.x ?? null, focal_point_y: point?.y ?? null });
    if (!changesPixels(edit)) {
      if (edit.focal_point_x !== undefined) await service.updateOne(id, focal(edit.focal_point_x === null ? null : { x: edit.focal_point_x, y: edit.focal_point_y! }));
      return;
    }
    const driver = this.#runtime.storage.get(current.storage as string);
    const input = Buffer.concat(await (await driver.read(current.filename_disk as string)).toArray());
    const edited = await editImage(input, format, edit, { maxDimension: this.#app.config.assets.transformMaxDimension });
    const old = current.focal_point_x !== null && current.focal_point_y !== null && current.width && current.height ? mapPoint({ x: Number(current.focal_point_x), y: Number(current.focal_point_y) }, { width: Number(current.width), height: Number(current.height) }, edit) : null;
    const point = edit.focal_point_x != null ? { x: edit.focal_point_x, y: edit.focal_point_y! } : edit.focal_point_x === null ? null : old;
    if (point && (point.x > edited.width || point.y > edited.height)) throw new InvalidPayloadError(`The focal point must lie within the edited image (${edited.width}×${edited.height}).`, { field: point.x > edited.width ? 'focal_point_x' : 'focal_point_y' });
    const stored = await storeUpload(driver, ReadableStream.from([edited.data]), {
      config: this.#app.config,
      keyBase: id,
      avoidKey: current.filename_disk as string,
      filename: current.filename_download as string,
      declaredType: current.type as string,
      field: 'file',
    });
    try {
      // A focal point carried through the edit is the server's to write; one the caller sends needs their field permission.
      const writer = await this.#writer(edit.focal_point_x === undefined ? ['focal_point_x', 'focal_point_y'] : []);
      await writer.updateOne(id, { ...stored, ...focal(point) });
    } catch (error) {
      await this.#removeContent([stored]);
      throw error;
    }
    await this.#dropReplaced(id, current, stored);
  }

  /** After a content swap: the old content (when stored under another key) and the cached transforms go. */
  async #dropReplaced(id: string, current: { storage: unknown; filename_disk: unknown }, stored: StoredContent): Promise<void> {
    if (current.filename_disk && (current.filename_disk !== stored.filename_disk || current.storage !== stored.storage)) {
      await this.#removeContent([{ storage: current.storage as string, filename_disk: current.filename_disk as string }]);
    }
    await this.#removeTransforms(current.storage as string, id);
  }

  /** Deletes files (rows in one transaction, then their content and cached transforms). */
  async delete(keys: ItemKey[], expected?: ExpectedVersions): Promise<void> {
    const service = await this.items();
    const ids = keys.map(String).filter((key) => /^[0-9a-f-]{36}$/i.test(key));
    const rows = ids.length > 0 ? await this.#app.database.kysely().selectFrom(FILES).select(['id', 'storage', 'filename_disk']).where('id', 'in', ids).execute() : [];
    await service.deleteMany(keys, expected);
    for (const row of rows) {
      if (row.filename_disk) await this.#removeContent([{ storage: row.storage as string, filename_disk: row.filename_disk as string }]);
      await this.#removeTransforms(row.storage as string, row.id as string);
    }
  }

  async #createRows(files: NewFile[]): Promise<ItemKey[]> {
    const folder = await this.#defaultFolder();
    const defaults = (file: NewFile): Record<string, unknown> => {
      const name = String(file.payload.filename_download ?? file.filename);
      return { filename_download: name, title: titleFromFilename(name), ...(folder ? { folder } : {}) };
    };
    // Defaults count as the server's only where no client chose that field itself.
    const serverFilled = ['filename_download', 'title', 'folder'].filter((field) => files.every((file) => !(field in file.payload)));
    const service = await this.#writer(serverFilled);
    return service.createMany(files.map((file) => ({ ...defaults(file), ...file.payload, id: file.id, ...file.stored })));
  }

  async #defaultFolder(): Promise<string | null> {
    const settings = await this.#app.database.kysely().selectFrom('tessera_settings').select('storage_default_folder').where('id', '=', SETTINGS_ID).executeTakeFirst();
    return (settings?.storage_default_folder as string | null | undefined) ?? null;
  }

  /** The driver of `location` (the default one when not given); 400 naming `storage` for one not configured. */
  #driver(location?: string) {
    if (location === undefined || location === '') return this.#runtime.storage.get(this.#runtime.storage.defaultLocation);
    const names = this.#app.config.storage.locations.map((item) => item.name);
    if (!names.includes(location)) throw new InvalidPayloadError(`"storage" must be one of the configured locations: ${names.join(', ')}.`, { field: 'storage' });
    return this.#runtime.storage.get(location);
  }

  /**
   * A file row without content (POST /files with a JSON body, as in Directus): for content imported later or
   * kept in external storage. `storage` must name a configured location; `type` is the declared MIME type.
   */
  async createWithoutContent(payload: Record<string, unknown>): Promise<ItemKey> {
    await this.#require('create');
    const { storage, type, ...fields } = payload;
    if (storage !== undefined && typeof storage !== 'string') throw new InvalidPayloadError('"storage" must be a string.', { field: 'storage' });
    if (type !== undefined && type !== null && (typeof type !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(type))) {
      throw new InvalidPayloadError('"type" must be a MIME type such as image/png.', { field: 'type' });
    }
    assertClientFields(fields);
    if (typeof fields.filename_download !== 'string' || fields.filename_download === '') {
      throw new InvalidPayloadError('"filename_download" is required for a file without content.', { field: 'filename_download' });
    }
    const location = this.#driver(storage).location;
    const folder = await this.#defaultFolder();
    const defaults = { title: titleFromFilename(fields.filename_download), ...(folder ? { folder } : {}) };
    const serverFilled = ['storage', 'type', ...Object.keys(defaults).filter((field) => !(field in fields))];
    const writer = await this.#writer(serverFilled);
    return writer.createOne({ ...defaults, ...fields, storage: location, type: type ?? null });
  }

  async #require(action: 'create' | 'update'): Promise<void> {
    const context = await this.#itemsContext();
    context.access?.require(FILES, action);
  }

  async #itemsContext(): Promise<ItemsContext> {
    if (!this.#context) {
      const schema: SchemaOverview = await this.#app.schema.get();
      const base = this.#app.servicesContext(this.#accountability);
      const access = await resolveAccess(base, schema);
      this.#context = { ...base, schema, access };
    }
    return this.#context;
  }

  async #removeContent(contents: Array<Pick<StoredContent, 'storage' | 'filename_disk'>>): Promise<void> {
    for (const content of contents) {
      try {
        await this.#runtime.storage.get(content.storage).delete(content.filename_disk);
      } catch (error) {
        if (!(error instanceof ForbiddenError)) this.#app.logger.warn({ err: error, key: content.filename_disk }, 'could not remove stored file content');
      }
    }
  }

  async #removeTransforms(storage: string, id: string): Promise<void> {
    try {
      await this.#runtime.storage.get(storage).deletePrefix(transformsPrefix(id));
    } catch (error) {
      if (!(error instanceof ForbiddenError)) this.#app.logger.warn({ err: error, id }, 'could not remove cached transforms');
    }
  }
}

/**
 * A replaced file's focal point in the new content: at the same place relative to the picture (so a
 * bigger or smaller version of the same picture keeps it), none when the new content has no size.
 * Nothing to write when there was none.
 */
function carriedFocalPoint(current: { width: unknown; height: unknown; focal_point_x: unknown; focal_point_y: unknown }, stored: StoredContent): Record<string, number | null> {
  if (current.focal_point_x === null || current.focal_point_y === null) return {};
  const oldWidth = Number(current.width);
  const oldHeight = Number(current.height);
  if (!stored.width || !stored.height || !oldWidth || !oldHeight) return { focal_point_x: null, focal_point_y: null };
  return {
    focal_point_x: Math.min(stored.width, Math.round((Number(current.focal_point_x) * stored.width) / oldWidth)),
    focal_point_y: Math.min(stored.height, Math.round((Number(current.focal_point_y) * stored.height) / oldHeight)),
  };
}
