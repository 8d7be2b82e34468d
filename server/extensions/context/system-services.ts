import type { Readable } from 'node:stream';
import type { AppContext } from '../../app-context.ts';
import { InvalidPayloadError } from '../../errors.ts';
import { FilesService as TesseraFilesService } from '../../files/files-service.ts';
import { FoldersService as TesseraFoldersService } from '../../files/folders-service.ts';
import type { ItemKey } from '../../services/items/item-keys.ts';
import { VersionsService as TesseraVersionsService } from '../../services/versions/versions-service.ts';
import { toTesseraAccountability } from './accountability.ts';
import { payloadToTessera } from './collection-names.ts';
import { ExtensionItemsService, type DirectusQuery, type Item, type ServiceOptions } from './items-facade.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Directus's FilesService over Tessera's: rows through the items service, content through Tessera's files
 * service (uploads stored and analysed, deletes remove the stored content too). File writes always run in
 * their own transaction: a `knex` transaction handle applies to reads only.
 */
export class ExtensionFilesService extends ExtensionItemsService {
  constructor(app: AppContext, options: ServiceOptions = {}) {
    super(app, 'directus_files', options);
  }

  #files(): TesseraFilesService {
    return new TesseraFilesService(this.app, toTesseraAccountability(this.accountability));
  }

  /** A file row without content (`filename_download` required, `storage` a configured location). */
  override async createOne(data: Item): Promise<ItemKey> {
    if (!isObject(data)) throw new InvalidPayloadError('A file must be a JSON object.');
    return this.#files().createWithoutContent(data);
  }

  override async createMany(data: Item[]): Promise<ItemKey[]> {
    if (!Array.isArray(data)) throw new InvalidPayloadError('Pass an array of items.');
    const keys: ItemKey[] = [];
    for (const item of data) keys.push(await this.createOne(item));
    return keys;
  }

  /** Stores `stream` as a new file; `data` holds its fields (`filename_download`, `type`, `title`, `folder` …). */
  async uploadOne(stream: Readable, data: Item = {}): Promise<ItemKey> {
    const { filename_download: filename, type, ...payload } = isObject(data) ? data : {};
    return this.#files().createFromStream(stream, {
      filename: typeof filename === 'string' && filename !== '' ? filename : 'file',
      declaredType: typeof type === 'string' ? type : undefined,
      payload: { ...payload, ...(typeof filename === 'string' ? { filename_download: filename } : {}) },
      field: 'file',
    });
  }

  override async deleteOne(key: ItemKey): Promise<ItemKey> {
    await this.#files().delete([key]);
    return key;
  }

  override async deleteMany(keys: ItemKey[]): Promise<ItemKey[]> {
    await this.#files().delete(keys);
    return keys;
  }

  override async deleteByQuery(query: DirectusQuery): Promise<ItemKey[]> {
    const keys = (await this.readByQuery({ ...query, fields: ['id'] })).map((item) => item.id as ItemKey);
    return this.deleteMany(keys);
  }
}

/**
 * Directus's FoldersService: a move under the folder's own subtree is refused, and deleting folders moves
 * their files and subfolders up (Tessera's folders service, its own transaction).
 */
export class ExtensionFoldersService extends ExtensionItemsService {
  constructor(app: AppContext, options: ServiceOptions = {}) {
    super(app, 'directus_folders', options);
  }

  #folders(): TesseraFoldersService {
    return new TesseraFoldersService(this.app, toTesseraAccountability(this.accountability));
  }

  override async updateOne(key: ItemKey, data: Item): Promise<ItemKey> {
    if (isObject(data) && 'parent' in data) await this.#folders().assertMovable([key], data.parent);
    return super.updateOne(key, data);
  }

  override async updateMany(keys: ItemKey[], data: Item): Promise<ItemKey[]> {
    if (isObject(data) && 'parent' in data) await this.#folders().assertMovable(keys, data.parent);
    return super.updateMany(keys, data);
  }

  override async deleteOne(key: ItemKey): Promise<ItemKey> {
    await this.#folders().delete([key]);
    return key;
  }

  override async deleteMany(keys: ItemKey[]): Promise<ItemKey[]> {
    await this.#folders().delete(keys);
    return keys;
  }

  override async deleteByQuery(query: DirectusQuery): Promise<ItemKey[]> {
    const keys = (await this.readByQuery({ ...query, fields: ['id'] })).map((item) => item.id as ItemKey);
    return this.deleteMany(keys);
  }
}

/** Directus's VersionsService: content versions created, saved and promoted through Tessera's versions service. */
export class ExtensionVersionsService extends ExtensionItemsService {
  constructor(app: AppContext, options: ServiceOptions = {}) {
    super(app, 'directus_versions', options);
  }

  async #versions(): Promise<TesseraVersionsService> {
    const context = this.app.servicesContext(toTesseraAccountability(this.accountability));
    return new TesseraVersionsService({ ...context, schema: await this.app.schema.get() });
  }

  /** Creates a version (`key`, `name`, `collection`, `item`); answers its id. */
  override async createOne(data: Item): Promise<ItemKey> {
    return (await this.#versions()).create(payloadToTessera('tessera_versions', data));
  }

  override async createMany(data: Item[]): Promise<ItemKey[]> {
    if (!Array.isArray(data)) throw new InvalidPayloadError('Pass an array of items.');
    const keys: ItemKey[] = [];
    for (const item of data) keys.push(await this.createOne(item));
    return keys;
  }

  /** Saves `delta` into the version; answers the version's merged changes. */
  async save(key: string, delta: Item): Promise<Item> {
    return (await this.#versions()).save(key, delta);
  }

  /** Applies the version's changes (or only `fields`) to the main item; answers the main item's key. */
  async promote(version: string, mainHash?: string, fields?: string[]): Promise<ItemKey> {
    return (await this.#versions()).promote(version, { ...(mainHash !== undefined ? { mainHash } : {}), ...(fields !== undefined ? { fields } : {}) });
  }
}
