import type { Kysely } from 'kysely';
import { permissionIdentity } from '../../cache/cache-key.ts';
import type { AccessStamps } from '../../auth/access-stamps.ts';
import { ForbiddenError } from '../../errors.ts';
import type { PendingActions } from '../../events/item-events.ts';
import { queryShapesFor } from '../../indexes/query-shapes.ts';
import { Access, resolveAccess } from '../../permissions/access.ts';
import { itemVersionKey } from '../../query/item-version.ts';
import { cursorKey } from '../../query/keyset-cursor.ts';
import { readByQuery, readJsonByQuery } from '../../query/run-query.ts';
import type { Query, ReadMeta, ReadOptions, ReadResult } from '../../query/types.ts';
import type { CollectionOverview, SchemaOverview } from '../../schema/overview.ts';
import type { ServiceContext } from '../service-context.ts';
import { queryByKeys, type ItemKey } from './item-keys.ts';
import type { MutationCount } from './mutation-limit.ts';
import { readableKeys } from './readable-keys.ts';
import { planItemCopies } from './revision-payloads.ts';

/** A service context plus the schema overview the service works against. */
export interface ItemsContext extends ServiceContext {
  schema: SchemaOverview;
  /** Revision of the write that caused this one, for nested writes. */
  parentRevision?: number | null;
  /** The caller's resolved permissions (null: unrestricted), shared by the services of one call. */
  access?: Access | null;
  /** Collections written in the current transaction, to invalidate caches once it commits. */
  written?: Set<string>;
  /**
   * The files service writing columns it computed from stored content (server-managed columns of
   * tessera_files). Applies to this service only: nested writes never inherit it.
   */
  serverColumns?: boolean;
  /** Item actions of the current transaction, emitted once it commits. */
  pendingActions?: PendingActions;
  /** Users whose access the current transaction ended, published once it commits (docs/auth.md "Ending access"). */
  endedAccess?: AccessStamps;
  /** Items the current transaction has written, against MAX_BATCH_MUTATION. */
  mutations?: MutationCount;
}

/**
 * The read side of the data engine (ItemsService adds the writes): reads by query, by keys and of
 * singletons, as objects or JSON text, with versions when asked, each in one compiled statement under
 * the caller's permissions.
 */
export class ItemReads {
  readonly collection: string;
  protected context: ItemsContext;
  protected readonly overview: CollectionOverview;

  constructor(collection: string, context: ItemsContext) {
    const overview = context.schema.collections[collection];
    if (!overview || !overview.table) throw new ForbiddenError();
    this.collection = collection;
    this.context = context;
    this.overview = overview;
  }

  /** Name of the primary-key field. */
  get primaryKeyField(): string {
    return this.overview.primary;
  }

  /** Reads items by query (fields, filter, sort, search, deep, aggregate, meta …) in one statement. */
  async readByQuery(query: Query, extra: Pick<ReadOptions, 'timeZone' | 'maxLimit'> = {}): Promise<ReadResult> {
    return this.#read(query, { ...(await this.#readOptions()), ...extra });
  }

  /** A read of given keys (queryByKeys): compiled once per item shape (its keys are bound per run), and no shape timing. */
  async #readByKeys(query: Query): Promise<ReadResult> {
    const options = await this.#readOptions();
    options.reuseIdentity = this.#reuseIdentity();
    options.shapes = undefined;
    return this.#read(query, options);
  }

  async #read(query: Query, options: ReadOptions): Promise<ReadResult> {
    const copies = planItemCopies(this.db, this.context.schema, this.context.access ?? null, this.collection, query);
    if (!copies) return readByQuery(this.db, this.context.schema, this.collection, query, options);
    const result = await readByQuery(this.db, this.context.schema, this.collection, copies.query, options);
    return { ...result, data: await copies.attach(result.data) };
  }

  /** readByQuery with each item as JSON text, for responses that pass items through unparsed. */
  async readJsonByQuery(query: Query): Promise<{ data: string[]; meta?: ReadMeta }> {
    return this.#readJson(query, false);
  }

  /**
   * readJsonByQuery, kept compiled for callers with the same rules; `byKeys`: a read of given keys (queryByKeys);
   * `versioned`: with each item's version (item-version.ts).
   */
  async #readJson(query: Query, byKeys: boolean, versioned = false): Promise<{ data: string[]; meta?: ReadMeta; versions?: string[] }> {
    const options = await this.#readOptions();
    options.reuseIdentity = this.#reuseIdentity();
    // A read of given keys: no index would serve it better, so no shape timing for the index advice.
    if (byKeys) options.shapes = undefined;
    if (versioned) options.versionKey = this.#versionKey;
    const copies = planItemCopies(this.db, this.context.schema, this.context.access ?? null, this.collection, query);
    if (!copies) return readJsonByQuery(this.db, this.context.schema, this.collection, query, options);
    const result = await readJsonByQuery(this.db, this.context.schema, this.collection, copies.query, options);
    const items = await copies.attach(result.data.map((text) => JSON.parse(text) as Record<string, unknown>));
    return { ...result, data: items.map((item) => JSON.stringify(item)) };
  }

  /**
   * readJsonByQuery with each item built by PostgreSQL as JSON text in `textShape` (a GraphQL response
   * shape); null when the read needs item copies attached in Node, which the shape does not know.
   */
  async readShapedJson(query: Query, textShape: NonNullable<ReadOptions['textShape']>): Promise<string[] | null> {
    if (planItemCopies(this.db, this.context.schema, this.context.access ?? null, this.collection, query)) return null;
    return (await readJsonByQuery(this.db, this.context.schema, this.collection, query, { ...(await this.#readOptions()), textShape })).data;
  }

  /** readOne as JSON text. */
  async readOneJson(key: ItemKey, query: Query = {}): Promise<string> {
    const [item] = (await this.#readJson(queryByKeys(this.overview, [key], query, 1), true)).data;
    if (item === undefined) throw new ForbiddenError();
    return item;
  }

  /** readOneJson with the item's version (its ETag, without quotes), read in the same statement. */
  async readOneJsonVersioned(key: ItemKey, query: Query = {}): Promise<{ item: string; version: string }> {
    const { data, versions } = await this.#readJson(queryByKeys(this.overview, [key], query, 1), true, true);
    if (data[0] === undefined) throw new ForbiddenError();
    return { item: data[0], version: versions![0]! };
  }

  /** readMany with each item's version (its ETag, without quotes), in the same order. */
  async readManyVersioned(keys: ItemKey[], query: Query = {}): Promise<{ items: Record<string, unknown>[]; versions: string[] }> {
    if (keys.length === 0) return { items: [], versions: [] };
    const options = { ...(await this.#readOptions()), reuseIdentity: this.#reuseIdentity(), shapes: undefined, versionKey: this.#versionKey };
    const result = await this.#read(queryByKeys(this.overview, keys, query, -1), options);
    return { items: result.data, versions: result.versions ?? [] };
  }

  get #versionKey(): string {
    return itemVersionKey(this.context.config.secret);
  }

  async #readOptions(): Promise<ReadOptions> {
    const access = await this.access();
    access?.require(this.collection, 'read');
    return {
      accountability: this.context.accountability,
      policy: access?.readPolicy(),
      maxLimit: this.context.config.query.limitMax ?? undefined,
      defaultLimit: this.context.config.query.limitDefault,
      maxFields: this.context.config.query.maxFields,
      maxRelations: this.context.config.query.maxRelations,
      maxRelationalDepth: this.context.config.query.maxRelationalDepth,
      shapes: queryShapesFor(this.context.config),
      cursorKey: cursorKey(this.context.config.secret),
    };
  }

  /**
   * Who a compiled read may be reused for: callers with the same role and flags read with the same rules
   * (and the same user, when a rule reads `$CURRENT_USER`); null when the rules are a share's or read
   * `$NOW`, or when this service runs with rules set by its caller rather than the accountability's.
   */
  #reuseIdentity(): string | null {
    const accountability = this.context.accountability;
    const access = this.context.access ?? null;
    if (!accountability || (access === null && !accountability.admin) || access?.shared) return null;
    return permissionIdentity(accountability, access?.permissions ?? null, '');
  }

  /** Reads one item; a missing or invisible item is FORBIDDEN, so existence never leaks. */
  async readOne(key: ItemKey, query: Query = {}): Promise<Record<string, unknown>> {
    const [item] = (await this.#readByKeys(queryByKeys(this.overview, [key], query, 1))).data;
    if (!item) throw new ForbiddenError();
    return item;
  }

  /** Reads the listed items (in the query's sort order). */
  async readMany(keys: ItemKey[], query: Query = {}): Promise<Record<string, unknown>[]> {
    if (keys.length === 0) return [];
    return (await this.#readByKeys(queryByKeys(this.overview, keys, query, -1))).data;
  }

  /** Of `keys`, those the caller may read now (its read rule; unrestricted callers: those that exist), in order. */
  async readableKeys(keys: ItemKey[]): Promise<ItemKey[]> {
    return readableKeys(this.db, this.context.schema, this.overview, await this.access(), keys);
  }

  /** Whether the caller may read the item with `key`; false for one that does not exist. */
  async isReadable(key: ItemKey): Promise<boolean> {
    return (await this.readableKeys([key])).length === 1;
  }

  /** Reads a singleton collection's one item, or null before it has been saved. */
  async readSingleton(query: Query = {}): Promise<Record<string, unknown> | null> {
    const [item] = (await this.readByQuery({ ...query, limit: 1, offset: 0, page: undefined })).data;
    return item ?? null;
  }

  /** readSingleton with the item's version (its ETag, without quotes). */
  async readSingletonVersioned(query: Query = {}): Promise<{ item: Record<string, unknown>; version: string } | null> {
    const options = { ...(await this.#readOptions()), versionKey: this.#versionKey };
    const result = await this.#read({ ...query, limit: 1, offset: 0, page: undefined }, options);
    return result.data[0] ? { item: result.data[0], version: result.versions![0]! } : null;
  }

  /** The caller's permissions, resolved once per call and shared with sibling services (null: unrestricted). */
  protected async access(): Promise<Access | null> {
    if (this.context.access === undefined) this.context = { ...this.context, access: await resolveAccess(this.context, this.context.schema) };
    return this.context.access ?? null;
  }

  protected get db(): Kysely<any> {
    return this.context.db;
  }
}
