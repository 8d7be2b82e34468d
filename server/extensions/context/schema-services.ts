import type { AppContext } from '../../app-context.ts';
import { InvalidPayloadError } from '../../errors.ts';
import { CollectionsService } from '../../services/collections-service.ts';
import { FieldsService } from '../../services/fields-service.ts';
import { RelationsService } from '../../services/relations-service.ts';
import { toTesseraAccountability, type DirectusAccountability } from './accountability.ts';
import { toDirectusCollection, toTesseraCollection } from './collection-names.ts';
import type { ServiceOptions } from './items-facade.ts';

type Response = Record<string, unknown>;
type Rename = (name: string) => string;

/** Keys naming collections in collections, fields and relations payloads and responses (top level and in `meta`/`schema`). */
const COLLECTION_KEYS = ['collection', 'related_collection', 'many_collection', 'one_collection', 'one_allowed_collections', 'table', 'foreign_key_table'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renameLevel(value: Record<string, unknown>, keys: readonly string[], rename: Rename): Record<string, unknown> {
  const copy = { ...value };
  for (const key of keys) {
    const name = copy[key];
    if (typeof name === 'string') copy[key] = rename(name);
    else if (Array.isArray(name)) copy[key] = name.map((item) => (typeof item === 'string' ? rename(item) : item));
  }
  return copy;
}

/**
 * `value` with the collection names at its top level and in its `meta` and `schema` renamed. In a
 * collections response `meta.group` (a folder collection) and `schema.name` are collection names too; in a
 * field's they name fields.
 */
function renamed(value: unknown, rename: Rename, collections = false): any {
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename, collections));
  if (!isObject(value)) return value;
  const copy = renameLevel(value, COLLECTION_KEYS, rename);
  if (isObject(copy.meta)) copy.meta = renameLevel(copy.meta, collections ? [...COLLECTION_KEYS, 'group'] : COLLECTION_KEYS, rename);
  if (isObject(copy.schema)) copy.schema = renameLevel(copy.schema, collections ? [...COLLECTION_KEYS, 'name'] : COLLECTION_KEYS, rename);
  return copy;
}

const toTessera = (value: unknown, collections?: boolean) => renamed(value, toTesseraCollection, collections);
const toDirectus = (value: unknown, collections?: boolean) => renamed(value, toDirectusCollection, collections);

/** The parts every schema service facade shares: the app and the caller (schema changes run in their own transaction). */
abstract class SchemaServiceFacade {
  readonly accountability: DirectusAccountability | null;
  readonly schema: unknown;
  protected readonly app: AppContext;

  constructor(app: AppContext, options: ServiceOptions = {}) {
    this.app = app;
    this.accountability = options.accountability ?? null;
    this.schema = options.schema;
  }

  protected context() {
    return this.app.servicesContext(toTesseraAccountability(this.accountability));
  }
}

/** Directus's CollectionsService over Tessera's (admin-only writes, DDL and metadata in one transaction). */
export class ExtensionCollectionsService extends SchemaServiceFacade {
  #service() {
    return new CollectionsService(this.context(), this.app.schema);
  }

  /** Every collection the caller may see. */
  async readByQuery(): Promise<Response[]> {
    return toDirectus(await this.#service().readAll(), true);
  }

  async readOne(collection: string): Promise<Response> {
    return toDirectus(await this.#service().readOne(toTesseraCollection(collection)), true);
  }

  async readMany(collections: string[]): Promise<Response[]> {
    const service = this.#service();
    const result: Response[] = [];
    for (const collection of collections) result.push(await service.readOne(toTesseraCollection(collection)));
    return toDirectus(result, true);
  }

  /** Creates a collection (`{ collection, fields?, meta?, schema? }`); answers its name. */
  async createOne(payload: Response): Promise<string> {
    const created = await this.#service().createOne(toTessera(payload, true));
    return toDirectusCollection(String(created.collection));
  }

  async createMany(payloads: Response[]): Promise<string[]> {
    if (!Array.isArray(payloads)) throw new InvalidPayloadError('Pass an array of collections.');
    const names: string[] = [];
    for (const payload of payloads) names.push(await this.createOne(payload));
    return names;
  }

  /** Updates a collection's metadata; answers its name. */
  async updateOne(collection: string, data: Response): Promise<string> {
    await this.#service().updateOne(toTesseraCollection(collection), toTessera(data, true));
    return collection;
  }

  async deleteOne(collection: string): Promise<string> {
    await this.#service().deleteOne(toTesseraCollection(collection));
    return collection;
  }

  async deleteMany(collections: string[]): Promise<string[]> {
    for (const collection of collections) await this.deleteOne(collection);
    return collections;
  }
}

/** Directus's FieldsService over Tessera's. */
export class ExtensionFieldsService extends SchemaServiceFacade {
  #service() {
    return new FieldsService(this.context(), this.app.schema);
  }

  /** Every field the caller may see, or those of one collection. */
  async readAll(collection?: string): Promise<Response[]> {
    const service = this.#service();
    return toDirectus(collection === undefined ? await service.readAll() : await service.readAllInCollection(toTesseraCollection(collection)));
  }

  async readOne(collection: string, field: string): Promise<Response> {
    return toDirectus(await this.#service().readOne(toTesseraCollection(collection), field));
  }

  /** Adds a field (`{ field, type, meta?, schema? }`) to a collection. */
  async createField(collection: string, field: Response): Promise<void> {
    await this.#service().createOne(toTesseraCollection(collection), toTessera(field));
  }

  /** Updates a field (`{ field, type?, meta?, schema? }`); answers its name. */
  async updateField(collection: string, field: Response): Promise<string> {
    if (!isObject(field) || typeof field.field !== 'string') throw new InvalidPayloadError('"field" is required.', { field: 'field' });
    await this.#service().updateOne(toTesseraCollection(collection), field.field, toTessera(field));
    return field.field;
  }

  /** Updates several fields of a collection; answers their names. */
  async updateFields(collection: string, fields: Response[]): Promise<string[]> {
    const updated = await this.#service().updateMany(toTesseraCollection(collection), toTessera(fields));
    return updated.map((field) => String(field.field));
  }

  async deleteField(collection: string, field: string): Promise<void> {
    await this.#service().deleteOne(toTesseraCollection(collection), field);
  }
}

/** Directus's RelationsService over Tessera's. */
export class ExtensionRelationsService extends SchemaServiceFacade {
  #service() {
    return new RelationsService(this.context(), this.app.schema);
  }

  /** Every relation the caller may see, or those of one collection. */
  async readAll(collection?: string): Promise<Response[]> {
    const service = this.#service();
    return toDirectus(collection === undefined ? await service.readAll() : await service.readAllInCollection(toTesseraCollection(collection)));
  }

  async readOne(collection: string, field: string): Promise<Response> {
    return toDirectus(await this.#service().readOne(toTesseraCollection(collection), field));
  }

  /** Creates a relation (`{ collection, field, related_collection, meta?, schema? }`). */
  async createOne(relation: Response): Promise<void> {
    await this.#service().createOne(toTessera(relation));
  }

  async updateOne(collection: string, field: string, relation: Response): Promise<void> {
    await this.#service().updateOne(toTesseraCollection(collection), field, toTessera(relation));
  }

  async deleteOne(collection: string, field: string): Promise<void> {
    await this.#service().deleteOne(toTesseraCollection(collection), field);
  }
}
