import { sql } from 'kysely';
import type { Knex } from 'knex';
import type { AppContext } from '../../app-context.ts';
import { InvalidPayloadError } from '../../errors.ts';
import type { WriteTransaction } from '../../events/event-names.ts';
import { parseQuery } from '../../query/parse-query.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { normalizeKeys, type ItemKey } from '../../services/items/item-keys.ts';
import { ItemsService as TesseraItemsService } from '../../services/items/items-service.ts';
import { toTesseraAccountability, type DirectusAccountability } from './accountability.ts';
import { itemToDirectus, payloadToTessera, queryToTessera, toTesseraCollection } from './collection-names.ts';
import { extensionDatabase, writeTransactionOf } from './database.ts';
import { inWriteTransaction } from './write-scope.ts';

/** What Directus's service constructors take. */
export interface ServiceOptions {
  /** Accepted for compatibility: services always work against the app's current schema. */
  schema?: unknown;
  /** Who the service acts as; null or omitted: full access (Directus's system caller). */
  accountability?: DirectusAccountability | null;
  /** A handle from `database.transactionHandle()` runs the service inside that write; any other value: the app's database. */
  knex?: unknown;
}

/** A Directus item: a plain object. */
export type Item = Record<string, unknown>;
/** A Directus query (fields, filter, sort, limit, offset, page, search, aggregate, groupBy, deep, alias). */
export type DirectusQuery = Record<string, unknown>;

/**
 * Directus's ItemsService, as a thin facade over Tessera's: every call goes through Tessera's items
 * service for the caller, so permissions, validation, system-collection rules, events, activity and
 * revisions apply exactly as for a REST request. Collection names are Directus's (`directus_users`).
 */
export class ExtensionItemsService {
  /** The collection as the extension named it. */
  readonly collection: string;
  readonly accountability: DirectusAccountability | null;
  readonly schema: unknown;
  readonly #app: AppContext;
  readonly #tesseraCollection: string;
  readonly #knex: unknown;

  constructor(app: AppContext, collection: string, options: ServiceOptions = {}) {
    this.#app = app;
    this.collection = collection;
    this.#tesseraCollection = toTesseraCollection(collection);
    this.accountability = options.accountability ?? null;
    this.schema = options.schema;
    this.#knex = options.knex;
  }

  /** The knex the service was given, or the app's (created on first use). */
  get knex(): Knex {
    return (this.#knex as Knex | undefined) ?? extensionDatabase(this.#app).knex();
  }

  /** Items matching the query (Directus answers the list alone, without meta). */
  async readByQuery(query: DirectusQuery = {}): Promise<Item[]> {
    const { data } = await (await this.tesseraService()).readByQuery(this.#query(query));
    return data.map((item) => this.#out(item));
  }

  /** One item; FORBIDDEN when it does not exist or may not be read. */
  async readOne(key: ItemKey, query: DirectusQuery = {}): Promise<Item> {
    return this.#out(await (await this.tesseraService()).readOne(key, this.#query(query)));
  }

  async readMany(keys: ItemKey[], query: DirectusQuery = {}): Promise<Item[]> {
    return (await (await this.tesseraService()).readMany(keys, this.#query(query))).map((item) => this.#out(item));
  }

  /** The singleton's item; before it is first saved, its fields' defaults (as Directus answers). */
  async readSingleton(query: DirectusQuery = {}): Promise<Item> {
    const service = await this.tesseraService();
    const item = await service.readSingleton(this.#query(query));
    if (item) return this.#out(item);
    const overview = await this.#overview();
    return Object.fromEntries(Object.values(overview.fields).filter((field) => !field.alias).map((field) => [field.field, field.defaultValue ?? null]));
  }

  /** Creates one item; answers its key. */
  async createOne(data: Item): Promise<ItemKey> {
    return (await this.tesseraService()).createOne(this.#in(data));
  }

  /** Creates items in one transaction; answers their keys in order. */
  async createMany(data: Item[]): Promise<ItemKey[]> {
    return (await this.tesseraService()).createMany(this.#list(data).map((item) => this.#in(item)));
  }

  async updateOne(key: ItemKey, data: Item): Promise<ItemKey> {
    return (await this.tesseraService()).updateOne(key, this.#in(data));
  }

  /** Applies the same change to every listed item (all or none). */
  async updateMany(keys: ItemKey[], data: Item): Promise<ItemKey[]> {
    return (await this.tesseraService()).updateMany(keys, this.#in(data));
  }

  /** Updates several items, each carrying its own key. */
  async updateBatch(data: Item[]): Promise<ItemKey[]> {
    return (await this.tesseraService()).updateBatch(this.#list(data).map((item) => this.#in(item)));
  }

  async updateByQuery(query: DirectusQuery, data: Item): Promise<ItemKey[]> {
    return (await this.tesseraService()).updateByQuery(this.#query(query), this.#in(data));
  }

  /** Updates the item whose key the data carries when it exists, creates it otherwise. */
  async upsertOne(data: Item): Promise<ItemKey> {
    return this.#upsert(data, await this.#transaction());
  }

  /** upsertOne for each item, in one transaction. */
  async upsertMany(data: Item[]): Promise<ItemKey[]> {
    const items = this.#list(data);
    const run = async (transaction: WriteTransaction) => {
      const keys: ItemKey[] = [];
      for (const item of items) keys.push(await this.#upsert(item, transaction));
      return keys;
    };
    const transaction = await this.#transaction();
    return transaction ? run(transaction) : inWriteTransaction(this.#app, run);
  }

  async deleteOne(key: ItemKey): Promise<ItemKey> {
    return (await this.tesseraService()).deleteOne(key);
  }

  /** Deletes the listed items (all or none). */
  async deleteMany(keys: ItemKey[]): Promise<ItemKey[]> {
    return (await this.tesseraService()).deleteMany(keys);
  }

  async deleteByQuery(query: DirectusQuery): Promise<ItemKey[]> {
    return (await this.tesseraService()).deleteByQuery(this.#query(query));
  }

  /** Creates or updates the singleton's one item; answers its key. */
  async upsertSingleton(data: Item): Promise<ItemKey> {
    return (await this.tesseraService()).upsertSingleton(this.#in(data));
  }

  /**
   * Tessera's items service for this collection and caller: inside the write transaction the `knex`
   * option stands for (or `transaction`), else on the app's database.
   */
  protected async tesseraService(given?: WriteTransaction): Promise<TesseraItemsService> {
    const transaction = given ?? (await this.#transaction());
    const schema = await this.#app.schema.get();
    const context = this.#app.servicesContext(toTesseraAccountability(this.accountability), transaction?.db);
    // Inside a write the service joins its transaction and queues its actions on the write's list (as filter flows do).
    const joined = transaction ? { written: transaction.written ?? new Set<string>(), pendingActions: transaction.pendingActions } : {};
    return new TesseraItemsService(this.#tesseraCollection, { ...context, schema, ...joined });
  }

  /** The Tessera name of this service's collection. */
  protected get tesseraCollection(): string {
    return this.#tesseraCollection;
  }

  /** The app this service belongs to. */
  protected get app(): AppContext {
    return this.#app;
  }

  /** The write transaction the `knex` option stands for, if any (begun now when the write deferred it). */
  async #transaction(): Promise<WriteTransaction | undefined> {
    return writeTransactionOf(this.#knex)?.();
  }

  async #upsert(data: unknown, transaction: WriteTransaction | undefined): Promise<ItemKey> {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new InvalidPayloadError('Each item must be a JSON object.');
    const service = await this.tesseraService(transaction);
    const payload = this.#in(data) as Item;
    const primary = service.primaryKeyField;
    const key = payload[primary];
    if (key === undefined || key === null || (typeof key !== 'string' && typeof key !== 'number')) return service.createOne(payload);
    const [normalized] = normalizeKeys(await this.#overview(), [key]);
    const db = transaction?.db ?? this.#app.database.kysely();
    const existing = await db.selectFrom(this.#tesseraCollection).select(sql.ref(primary).as('key')).where(sql.ref(primary), '=', normalized).executeTakeFirst();
    if (!existing) return service.createOne(payload);
    const { [primary]: _key, ...changes } = payload;
    return service.updateOne(normalized!, changes);
  }

  async #overview(): Promise<CollectionOverview> {
    // The Tessera service has already refused an unknown collection, so the overview exists here.
    return (await this.#app.schema.get()).collections[this.#tesseraCollection]!;
  }

  #query(query: DirectusQuery) {
    return parseQuery(queryToTessera(this.#tesseraCollection, query ?? {}));
  }

  #in(data: unknown): unknown {
    return payloadToTessera(this.#tesseraCollection, data);
  }

  #out(item: Item): Item {
    return itemToDirectus(this.#tesseraCollection, item) as Item;
  }

  #list(data: unknown): unknown[] {
    if (!Array.isArray(data)) throw new InvalidPayloadError('Pass an array of items.');
    return data;
  }
}
