import { sql } from 'kysely';
import { DeferredTransaction } from '../../database/deferred-transaction.ts';
import { runTransaction } from '../../database/transaction-retry.ts';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import { applyWritePermission, assertWritableFields } from '../../permissions/write-permission.ts';
import type { Permission, PermissionAction } from '../../permissions/types.ts';
import { readByQuery } from '../../query/run-query.ts';
import type { Query } from '../../query/types.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { keysAsSent, normalizeKeys, uniqueKeys, type ItemKey } from './item-keys.ts';
import { ItemReads } from './item-reads.ts';
import { ItemRows } from './item-rows.ts';
import { recordActivity, type WrittenItem } from './record-activity.ts';
import { linkedKey, relationOf } from './relations.ts';
import { assertFieldRules } from './field-rules.ts';
import { canCreateInOneStatement, createInOneStatement } from './single-statement-create.ts';
import { assertPrivilegedDelete } from './privilege-rules.ts';
import { filterItemPayload, flushItemActions, hasItemFilters, itemFiltersNeedTransaction, queueItemActions, type PendingActions } from '../../events/item-events.ts';
import { itemWriteHooks } from '../../events/item-write-hooks.ts';
import { eventsRecorded } from '../../events/write-jobs.ts';
import type { WriteTransaction } from '../../events/event-names.ts';
import { statementsRecorded } from '../../cache/statement-recorder.ts';
import type { AccessStamps } from '../../auth/access-stamps.ts';
import { accessEndedByDelete } from './ended-access.ts';
import { countMutations, type MutationCount } from './mutation-limit.ts';
import { setsGeneratedKey } from './generated-keys.ts';
import type { ExpectedVersions } from './expected-versions.ts';
import { refuseStale } from './stale-items.ts';

export type { ItemKey };

export type { ItemsContext } from './item-reads.ts';

/** Collections whose writes change what callers may do: the permission caches are dropped after them. */
const ACCESS_COLLECTIONS = new Set(['tessera_permissions', 'tessera_roles']);

type Payload = Record<string, unknown>;

/**
 * The write side of the data engine, shared by every collection, system ones included: validation,
 * specials, nested relational writes, activity and revisions, all in one transaction per call.
 */
export class ItemsService extends ItemReads {
  /** Creates or updates a singleton's one item; returns its key. With `expected`, the item must exist at one of those versions. */
  async upsertSingleton(payload: unknown, expected?: ExpectedVersions): Promise<ItemKey> {
    return this.#inTransaction(async (service) => {
      const [existing] = await service.db.selectFrom(service.collection).select(sql.ref(service.primaryKeyField).as('key')).limit(1).execute();
      if (!existing && expected) throw new ForbiddenError();
      return existing ? service.updateOne(existing.key as ItemKey, payload, expected) : service.createOne(payload);
    });
  }

  /** Keys of the items a query matches (filter, search, sort, limit). */
  async keysByQuery(query: Query): Promise<ItemKey[]> {
    const { data } = await this.readByQuery({ ...query, fields: [this.primaryKeyField], aggregate: undefined, groupBy: undefined, meta: undefined, alias: undefined, deep: undefined });
    return data.map((item) => item[this.primaryKeyField] as ItemKey);
  }

  /** Updates every item a query matches (each at one of the `expected` versions, when given). */
  async updateByQuery(query: Query, payload: unknown, expected?: ExpectedVersions): Promise<ItemKey[]> {
    return this.#inTransaction(async (service) => service.updateMany(await service.keysByQuery(query), payload, expected));
  }

  /** Deletes every item a query matches (each at one of the `expected` versions, when given). */
  async deleteByQuery(query: Query, expected?: ExpectedVersions): Promise<ItemKey[]> {
    return this.#inTransaction(async (service) => service.deleteMany(await service.keysByQuery(query), expected));
  }

  /** Creates one item (with its nested relations); returns its key. */
  async createOne(payload: unknown): Promise<ItemKey> {
    const flat = await this.#createFlat(payload);
    if (flat !== undefined) return flat;
    const [key] = await this.createMany([payload]);
    return key!;
  }

  /**
   * The common create, in one statement: an item of a user collection with no nested relational values and
   * no create rule to check after the insert. Undefined when the create needs the general path (which runs
   * the same checks inside a transaction). With item filters listening, the filters run first (they may
   * refuse the write or join it through their context's database): inside a transaction begun before them
   * when one of them needs it (filter flows), else in one begun only if a filter joins the write; the insert
   * stays one statement either way, and the actions are emitted after the commit.
   */
  async #createFlat(raw: unknown): Promise<ItemKey | undefined> {
    if (this.collection.startsWith('tessera_') || this.db.isTransaction || this.context.written || !canCreateInOneStatement(this.overview)) return undefined;
    // A collection rule sees the payload before the write: such creates take the general path.
    if (this.context.rules.has(this.collection)) return undefined;
    await this.access();
    const permission = await this.#permission('create');
    if (permission?.permissions) return undefined;
    if (!hasItemFilters(this.context.events, this.collection, 'create')) return this.#insertFlat(permission, asPayload(raw, this.overview));
    const insert = async (service: ItemsService, filtered: Payload) => {
      const key = await service.#insertFlat(permission, filtered);
      if (key !== undefined) return key;
      const written = await service.#insertRow(permission, filtered);
      await service.#record('create', [written]);
      return written.key;
    };
    if (itemFiltersNeedTransaction(this.context.events, this.collection, 'create')) {
      return this.#inTransaction(async (service) => insert(service, await filterItemPayload(service.context.events, service.collection, 'create', asPayload(raw, service.overview), [], service.context.accountability, service.#writeTransaction)));
    }
    return this.#createAfterDeferringFilters(permission, asPayload(raw, this.overview), insert);
  }

  /**
   * A create whose filters all defer the write's transaction: they run first, on no connection; when none
   * joined the write (the common payload-only filter) the insert is one statement, else it finishes inside
   * the transaction the first joining filter began. That one is not retried on a conflict: its filters have
   * run, and a rerun would run them twice.
   */
  async #createAfterDeferringFilters(permission: Permission | null, payload: Payload, insert: (service: ItemsService, filtered: Payload) => Promise<ItemKey>): Promise<ItemKey> {
    const deferred = new DeferredTransaction(this.db);
    const scope = newWriteScope();
    const open = async (): Promise<WriteTransaction> => ({ db: await deferred.open(), written: scope.written, pendingActions: scope.pendingActions });
    try {
      const filtered = await filterItemPayload(this.context.events, this.collection, 'create', payload, [], this.context.accountability, open);
      if (!deferred.begun) return (await this.#insertFlat(permission, filtered)) ?? (await this.#inTransaction((service) => insert(service, filtered)));
      const key = await insert(new ItemsService(this.collection, { ...this.context, db: await deferred.open(), ...scope }), filtered);
      await deferred.commit();
      await this.#afterCommit(scope);
      return key;
    } catch (error) {
      await deferred.rollback();
      throw error;
    }
  }

  /** The one-statement insert of a filtered payload; undefined when it has nested relational values. */
  async #insertFlat(permission: Permission | null, raw: Payload): Promise<ItemKey | undefined> {
    const payload = this.#permitted(permission, raw, 'create');
    const nested = Object.entries(payload).some(([field, value]) => {
      const relation = relationOf(this.context.schema, this.collection, field);
      return relation !== null && (relation.kind === 'o2m' || (value !== null && typeof value === 'object'));
    });
    // A client-chosen integer key moves the key's sequence on, which the general path does.
    if (nested || setsGeneratedKey(this.overview, payload)) return undefined;
    const { columns } = await this.#rows.prepare(payload, 'create');
    const insert = Object.keys(columns).length > 0 ? this.db.insertInto(this.collection).values(columns) : this.db.insertInto(this.collection).defaultValues();
    const { key, recorded } = await withDatabaseErrors(() => createInOneStatement(this.db, this.overview, insert, payload, this.context.accountability, this.context.parentRevision ?? null));
    this.context.written?.add(this.collection);
    queueItemActions(this.context.events, this.context.pendingActions, this.collection, 'create', [key], payload, this.context.accountability);
    // Inside a transaction the relay moves the recorded events once it has committed.
    if (recorded > 0) {
      if (this.context.pendingActions) this.context.pendingActions.push(eventsRecorded);
      else eventsRecorded();
    }
    return key;
  }

  /** Creates items in one transaction; returns their keys in order. */
  async createMany(payloads: unknown[]): Promise<ItemKey[]> {
    return this.#inTransaction(async (service) => {
      const permission = await service.#permission('create');
      service.#countMutations(payloads.length);
      const written: WrittenItem[] = [];
      for (const payload of payloads) {
        const filtered = await filterItemPayload(service.context.events, service.collection, 'create', asPayload(payload, service.overview), [], service.context.accountability, service.#writeTransaction);
        written.push(await service.#insertRow(permission, filtered));
      }
      // A create rule is checked on the rows as written (relational rules included), before the commit.
      if (permission?.permissions) await service.#rows.assertExist(written.map((item) => item.key), 'create');
      await service.#record('create', written);
      return written.map((item) => item.key);
    });
  }

  /** The general insert of one filtered payload (collection rules, nested writes), inside the caller's transaction. */
  async #insertRow(permission: Permission | null, payload: Payload): Promise<WrittenItem> {
    return this.#rows.insert(await this.context.rules.apply(this.context, this.collection, this.#permitted(permission, payload, 'create'), 'create'));
  }

  /**
   * Applies the same change to every listed item; refuses the whole batch when one does not exist, and with
   * `expected` (If-Match) when one is at none of those versions (PRECONDITION_FAILED).
   */
  async updateMany(rawKeys: ItemKey[], payload: unknown, expected?: ExpectedVersions): Promise<ItemKey[]> {
    const keys = uniqueKeys(normalizeKeys(this.overview, rawKeys));
    return this.#inTransaction(async (service) => {
      const filtered = await filterItemPayload(service.context.events, service.collection, 'update', asPayload(payload, service.overview), keys, service.context.accountability, service.#writeTransaction);
      const data = await service.context.rules.apply(service.context, service.collection, service.#permitted(await service.#permission('update'), filtered, 'update'), 'update', keys);
      // Nothing to update (no keys, or a query that matched nothing): `in ()` is not SQL.
      if (keys.length === 0) return keys;
      service.#countMutations(keys.length);
      await service.#rows.lockInKeyOrder(keys);
      const written = await service.#rows.update(keys, data, expected);
      await service.#record('update', written);
      return keys;
    });
  }

  /** Updates one item (at one of the `expected` versions, when given). */
  async updateOne(key: ItemKey, payload: unknown, expected?: ExpectedVersions): Promise<ItemKey> {
    await this.updateMany([key], payload, expected);
    return key;
  }

  /** Updates several items, each with its own data (each object carries its key; each at one of the `expected` versions, when given). */
  async updateBatch(items: unknown[], expected?: ExpectedVersions): Promise<ItemKey[]> {
    return this.#inTransaction(async (service) => {
      const keyOf = (item: unknown) => asPayload(item, service.overview)[service.primaryKeyField];
      const valid = items.map(keyOf).filter((key): key is ItemKey => typeof key === 'string' || typeof key === 'number');
      if (valid.length === items.length) await service.#rows.lockInKeyOrder(uniqueKeys(normalizeKeys(service.overview, valid)));
      const keys: ItemKey[] = [];
      for (const item of items) {
        const { [service.primaryKeyField]: key, ...data } = asPayload(item, service.overview);
        if (typeof key !== 'string' && typeof key !== 'number') throw new InvalidPayloadError(`Each item needs its "${service.primaryKeyField}".`, { field: service.primaryKeyField });
        await service.updateMany([key], data, expected);
        keys.push(key);
      }
      return keys;
    });
  }

  /** Deletes the listed items; refuses the whole batch when one does not exist, or with `expected` when one is at none of those versions. */
  async deleteMany(rawKeys: ItemKey[], expected?: ExpectedVersions): Promise<ItemKey[]> {
    const normalized = normalizeKeys(this.overview, rawKeys);
    const keys = uniqueKeys(normalized);
    return this.#inTransaction(async (service) => {
      await service.#permission('delete');
      if (keys.length === 0) return keys;
      service.#countMutations(keys.length);
      await filterItemPayload(service.context.events, service.collection, 'delete', { keys }, keys, service.context.accountability, service.#writeTransaction);
      await service.#rows.lockInKeyOrder(keys);
      await assertPrivilegedDelete(service.db, service.context.access ?? null, service.collection, keys);
      const endAccess = await accessEndedByDelete(service.context, service.collection, keys);
      const check = expected ? service.#rows.staleCheck('delete') : null;
      const deleted = await withDatabaseErrors(() => {
        const statement = service.#rows.withinRule(service.db.deleteFrom(service.collection).where(sql.ref(service.primaryKeyField), 'in', keys), 'delete');
        return (check ? statement.where(check.atVersion(expected!)) : statement).returning(sql.ref(service.primaryKeyField).as('key')).execute();
      });
      // A key that matched nothing refuses the whole batch: the transaction rolls the deletes back.
      if (deleted.length !== keys.length) throw check ? await refuseStale(check, keys, deleted.map((row) => row.key as ItemKey)) : new ForbiddenError();
      await endAccess();
      await service.#record('delete', keysAsSent(rawKeys, normalized).map((key) => ({ key, delta: null })));
      return keys;
    });
  }

  /** Deletes one item (at one of the `expected` versions, when given). */
  async deleteOne(key: ItemKey, expected?: ExpectedVersions): Promise<ItemKey> {
    await this.deleteMany([key], expected);
    return key;
  }

  /**
   * Normalises keys to the key's type and checks the caller may update every item and the listed fields
   * (FORBIDDEN otherwise, also for items that do not exist).
   */
  async normalizeAndCheck(rawKeys: ItemKey[], fields: string[] = [], options: { everyItem?: boolean } = {}): Promise<ItemKey[]> {
    const permission = await this.#permission('update');
    if (permission) assertWritableFields(permission, this.overview, fields);
    // A change that shifts other items too (manual sorting) needs update rights on every item.
    if (options.everyItem && permission?.permissions) throw new ForbiddenError(`You may update only some items of "${this.collection}", so you cannot reorder them.`);
    const keys = normalizeKeys(this.overview, rawKeys);
    await this.#rows.assertExist(keys, 'update');
    return keys;
  }

  /**
   * Whether an item with `key` exists, whatever the caller may read: a nested write decides by it between
   * updating an item (the update rule applies) and creating one with that key (the create rule applies).
   */
  async exists(key: ItemKey): Promise<boolean> {
    let normalized: ItemKey;
    try {
      [normalized] = normalizeKeys(this.overview, [key]) as [ItemKey];
    } catch {
      return false;
    }
    return (await this.keysWhere(this.primaryKeyField, normalized)).length > 0;
  }

  /** Keys of the items whose `field` equals `value` (used to find an o2m parent's children). */
  async keysWhere(field: string, value: unknown): Promise<ItemKey[]> {
    const rows = await this.db.selectFrom(this.collection).select(sql.ref(this.primaryKeyField).as('key')).where(sql.ref(field), '=', value).execute();
    return rows.map((row) => row.key as ItemKey);
  }

  /** The caller's permission for `action` here (FORBIDDEN without one); null for unrestricted callers. */
  async #permission(action: PermissionAction): Promise<Permission | null> {
    const access = await this.access();
    return access ? access.require(this.collection, action) : null;
  }

  /** The payload as the permission allows it (only permitted fields, presets as defaults, its validation met) and meeting the fields' own rules. */
  #permitted(permission: Permission | null, filtered: Payload, mode: 'create' | 'update'): Payload {
    const payload = this.context.config.items.unknownFields === 'ignore' ? knownFieldsOf(filtered, this.overview) : filtered;
    const keyOf = (path: string, value: Payload) => linkedKey(this.context.schema, this.collection, path, value);
    const allowed = permission ? applyWritePermission(permission, this.overview, payload, mode, this.context.accountability, keyOf) : payload;
    assertFieldRules(this.overview, allowed, this.context.accountability, keyOf);
    return allowed;
  }

  #countMutations(count: number): void {
    countMutations(this.context.mutations, this.context.config.items.maxBatchMutation, count);
  }

  /** This write's transaction as filters may join it (filter flows' item operations). */
  get #writeTransaction(): WriteTransaction {
    return { db: this.context.db, written: this.context.written, pendingActions: this.context.pendingActions };
  }

  /** A service for another collection that shares this one's transaction and caller. */
  #sibling(collection: string): ItemsService {
    return new ItemsService(collection, { ...this.context, serverColumns: undefined });
  }

  /** The statements of this collection's writes, in this service's transaction and for its caller. */
  get #rows(): ItemRows {
    return new ItemRows(this.collection, this.overview, this.context, (collection) => this.#sibling(collection));
  }

  async #inTransaction<T>(work: (service: ItemsService) => Promise<T>): Promise<T> {
    await this.access();
    if (this.context.written) return work(this);
    const scope = newWriteScope();
    const result = this.db.isTransaction
      ? await work(new ItemsService(this.collection, { ...this.context, ...scope }))
      : await runTransaction(this.db, (trx) => {
          // A retried transaction starts over.
          scope.pendingActions.length = 0;
          scope.endedAccess.clear();
          scope.mutations.count = 0;
          return work(new ItemsService(this.collection, { ...this.context, db: trx, ...scope }));
        });
    await this.#afterCommit(scope);
    return result;
  }

  /** What a committed write owes: its item actions, ended access, and the caches it made stale. */
  async #afterCommit({ written, pendingActions, endedAccess }: WriteScope): Promise<void> {
    flushItemActions(pendingActions);
    this.context.accessStamps?.publish(endedAccess);
    // After the commit, so no instance can re-read the permissions before the change is visible. Roles and
    // permissions change no collection: the overview is kept, what derives from it (permissions) is cleared.
    if ([...written].some((collection) => ACCESS_COLLECTIONS.has(collection))) this.context.schemaCache.invalidate([]);
    // An HTTP request purges what it wrote once it has finished; other writers (CLI, flows, jobs) here.
    if (!statementsRecorded()) await this.context.responseCache?.purgeWritten(written);
  }

  async #record(action: 'create' | 'update' | 'delete', items: WrittenItem[]): Promise<void> {
    this.context.written?.add(this.collection);
    const hooks = itemWriteHooks(this.context.events, this.context.pendingActions, this.collection, action, items, this.context.accountability);
    const recorded = await recordActivity(this.db, this.overview, action, items, this.context.accountability, this.context.parentRevision ?? null, hooks);
    // The relay moves the events once the transaction has committed (a rolled-back one drops its pending list).
    if (recorded > 0) this.context.pendingActions?.push(eventsRecorded);
  }
}

/** What one write transaction collects as it goes, for after its commit. */
interface WriteScope {
  written: Set<string>;
  pendingActions: PendingActions;
  endedAccess: AccessStamps;
  mutations: MutationCount;
}

function newWriteScope(): WriteScope {
  return { written: new Set(), pendingActions: [], endedAccess: new Map(), mutations: { count: 0 } };
}

/**
 * The item payload; a system collection ignores fields it does not have (Directus clients send some, such
 * as `name` on users), a user collection keeps them so that validation refuses them.
 */
function asPayload(value: unknown, overview: CollectionOverview): Payload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidPayloadError('Each item must be a JSON object.');
  return overview.system ? knownFieldsOf(value as Payload, overview) : (value as Payload);
}

/**
 * The payload without the fields the collection does not have. A user collection drops them only with
 * ITEMS_UNKNOWN_FIELDS=ignore, and after the filter hooks, which may turn such a field into real ones.
 */
function knownFieldsOf(payload: Payload, overview: CollectionOverview): Payload {
  if (Object.keys(payload).every((field) => Object.hasOwn(overview.fields, field))) return payload;
  return Object.fromEntries(Object.entries(payload).filter(([field]) => Object.hasOwn(overview.fields, field)));
}
