import { sql } from 'kysely';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import type { PermissionAction } from '../../permissions/types.ts';
import { compilePermittedKeys } from '../../query/compile-permitted.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import type { ItemKey } from './item-keys.ts';
import type { ItemsContext, ItemsService } from './items-service.ts';
import { writeManyToOne, writeOneToMany } from './nested-writes.ts';
import { toColumns, validateScalars, type WriteMode } from './prepare-payload.ts';
import { assertPrivilegeRules } from './privilege-rules.ts';
import { keepsRevisions, type WrittenItem } from './record-activity.ts';
import { relationOf } from './relations.ts';
import { assertNoServerManagedFields } from './server-managed-fields.ts';
import { endUserAccess, roleUsersLosingAccess, usersLosingAccess } from '../../auth/access-stamps.ts';
import { noteEndedAccess } from './ended-access.ts';
import { advanceKeySequence, setsGeneratedKey } from './generated-keys.ts';
import type { ExpectedVersions } from './expected-versions.ts';
import { refuseStale, StaleCheck } from './stale-items.ts';

type Payload = Record<string, unknown>;

/**
 * The statements of one collection's item writes, run by ItemsService once a payload has passed the
 * permission and collection rules: rows inserted, updated, locked and counted within the caller's rule,
 * with nested relational values written through sibling services.
 */
export class ItemRows {
  readonly #collection: string;
  readonly #overview: CollectionOverview;
  readonly #context: ItemsContext;
  readonly #sibling: (collection: string) => ItemsService;

  /** `sibling` gives a service for a related collection in the same transaction, for nested writes. */
  constructor(collection: string, overview: CollectionOverview, context: ItemsContext, sibling: (collection: string) => ItemsService) {
    this.#collection = collection;
    this.#overview = overview;
    this.#context = context;
    this.#sibling = sibling;
  }

  /** Narrows an UPDATE, DELETE or SELECT to the items the caller's rule for `action` reaches. */
  withinRule<T extends { where: (...args: any[]) => T }>(builder: T, action: PermissionAction): T {
    const rule = this.#context.access?.itemFilter(this.#collection, action) ?? null;
    if (!rule) return builder;
    const permitted = compilePermittedKeys(this.#context.schema, this.#collection, rule, this.#context.accountability);
    return builder.where(sql<boolean>`${sql.ref(this.#overview.primary)} in (${permitted})`);
  }

  /**
   * Locks the listed rows in key order before a batch changes them. Without it, two batches naming the
   * same items in different orders (or one UPDATE … IN whose scan order shifts as rows move) each hold a
   * row the other waits for: a deadlock PostgreSQL breaks by aborting one of them.
   */
  async lockInKeyOrder(keys: ItemKey[]): Promise<void> {
    if (keys.length < 2) return;
    const primary = this.#overview.primary;
    await withDatabaseErrors(() =>
      this.#context.db.selectFrom(this.#collection).select(sql.ref(primary).as('key')).where(sql.ref(primary), 'in', keys).orderBy(sql.ref(primary)).forUpdate().execute(),
    );
  }

  /** FORBIDDEN unless every key exists (and is within the caller's rule for `action`). */
  async assertExist(keys: ItemKey[], action: PermissionAction): Promise<void> {
    if (keys.length === 0) return;
    const unique = [...new Set(keys.map(String))];
    const found = await withDatabaseErrors(() =>
      this.withinRule(this.#context.db.selectFrom(this.#collection).select((eb) => eb.fn.countAll<string>().as('count')).where(sql.ref(this.#overview.primary), 'in', unique), action).executeTakeFirstOrThrow(),
    );
    if (Number(found.count) !== unique.length) throw new ForbiddenError();
  }

  /** Splits a payload into column values (m2o objects resolved to keys) and o2m values to apply after the row exists. */
  async prepare(payload: Payload, mode: WriteMode): Promise<{ columns: Payload; toMany: Array<[string, unknown]> }> {
    const relational = new Set<string>();
    const scalar: Payload = {};
    const toMany: Array<[string, unknown]> = [];
    for (const [field, value] of Object.entries(payload)) {
      const relation = relationOf(this.#context.schema, this.#collection, field);
      if (relation) relational.add(field);
      if (relation?.kind === 'o2m') toMany.push([field, value]);
      else scalar[field] = value;
    }
    if (!this.#context.serverColumns) assertNoServerManagedFields(this.#collection, payload);
    validateScalars(this.#overview, payload, mode, relational);
    assertAllowedAnyCollections(this.#context.schema, this.#collection, payload);
    for (const [field, value] of Object.entries(scalar)) {
      const relation = relationOf(this.#context.schema, this.#collection, field);
      if (!relation || value === null || typeof value !== 'object') continue;
      const target = relation.kind === 'm2a' ? m2aTarget(relation.relation.meta, payload, field) : relation.relation.relatedCollection!;
      scalar[field] = await writeManyToOne(this.#sibling(target), value, field);
    }
    return { columns: await toColumns(this.#overview, scalar, mode, this.#context.accountability, this.#context.config.auth.hash), toMany };
  }

  /** Inserts one item (its m2o values first, its o2m values after). */
  async insert(payload: Payload): Promise<WrittenItem> {
    const db = this.#context.db;
    const { columns, toMany } = await this.prepare(payload, 'create');
    await assertPrivilegeRules(db, this.#context.access ?? null, this.#collection, columns, null);
    const insert = Object.keys(columns).length > 0 ? db.insertInto(this.#collection).values(columns) : db.insertInto(this.#collection).defaultValues();
    const row = await withDatabaseErrors(() => insert.returning(this.#returning('create')).executeTakeFirstOrThrow());
    if (setsGeneratedKey(this.#overview, columns)) await advanceKeySequence(db, this.#overview);
    const key = row.key as ItemKey;
    await this.#writeToMany(key, toMany);
    return { key, delta: payload, data: row.data as Record<string, unknown> | undefined };
  }

  /** The version check of a write with If-Match (stale-items.ts), against this collection and the caller's rule. */
  staleCheck(action: PermissionAction): StaleCheck {
    return new StaleCheck(this.#collection, this.#overview, this.#context, (builder) => this.withinRule(builder, action));
  }

  /**
   * Applies one change to the listed items; FORBIDDEN when one of them does not exist or is outside the rule,
   * 412 when `expected` is given and one of them is at another version (checked in the UPDATE's WHERE).
   */
  async update(keys: ItemKey[], payload: Payload, expected?: ExpectedVersions): Promise<WrittenItem[]> {
    const db = this.#context.db;
    const { columns, toMany } = await this.prepare(payload, 'update');
    await assertPrivilegeRules(db, this.#context.access ?? null, this.#collection, columns, keys);
    const losingAccess =
      this.#collection === 'tessera_users' ? await usersLosingAccess(db, keys, columns) : this.#collection === 'tessera_roles' ? await roleUsersLosingAccess(db, keys, columns) : [];
    let written: WrittenItem[] = keys.map((key) => ({ key, delta: payload }));
    if (Object.keys(columns).length > 0) {
      const check = expected ? this.staleCheck('update') : null;
      const rows = await withDatabaseErrors(() => {
        const update = this.withinRule(db.updateTable(this.#collection).set(columns).where(sql.ref(this.#overview.primary), 'in', keys), 'update');
        return check ? update.where(check.atVersion(expected!)).returning([...this.#returning('update'), check.newVersion()]).execute() : update.returning(this.#returning('update')).execute();
      });
      // A key that matched nothing refuses the whole batch: the transaction rolls the update back.
      if (rows.length !== keys.length) throw check ? await refuseStale(check, keys, rows.map((row) => row.key as ItemKey)) : new ForbiddenError();
      const byKey = new Map(rows.map((row) => [String(row.key), row.data as Record<string, unknown> | undefined]));
      written = keys.map((key) => ({ key, delta: payload, data: byKey.get(String(key)) }));
      if (expected) for (const row of rows) expected.written.set(String(row.key), (row as Record<string, unknown>).version as string);
    } else if (expected) {
      const current = await this.staleCheck('update').assertAt(keys, expected);
      for (const [key, version] of current) expected.written.set(key, version);
    } else {
      await this.assertExist(keys, 'update');
    }
    for (const key of keys) await this.#writeToMany(key, toMany);
    if (losingAccess.length > 0) noteEndedAccess(this.#context, await endUserAccess(db, losingAccess));
    return written;
  }

  /** What a write returns: the key, and the whole row when revisions will need it (saves a read). */
  #returning(action: 'create' | 'update') {
    const key = sql.ref(this.#overview.primary).as('key');
    return keepsRevisions(this.#overview, action) ? [key, sql<Record<string, unknown>>`to_jsonb(${sql.table(this.#collection)})`.as('data')] : [key];
  }

  async #writeToMany(key: ItemKey, toMany: Array<[string, unknown]>): Promise<void> {
    for (const [field, value] of toMany) {
      const relation = relationOf(this.#context.schema, this.#collection, field)!.relation;
      await writeOneToMany(this.#sibling(relation.collection), relation, key, value, field);
    }
  }
}

/**
 * A many-to-any junction row's collection field names one of the relation's allowed collections, whatever
 * the item is: new (an object), linked by key, or not in the payload at all (the field changed on its own).
 */
function assertAllowedAnyCollections(schema: ItemsContext['schema'], collection: string, payload: Payload): void {
  for (const relation of schema.relations) {
    if (relation.collection !== collection || relation.relatedCollection !== null) continue;
    const field = relation.meta.oneCollectionField;
    const target = field ? payload[field] : null;
    if (field && target !== undefined && target !== null) m2aTarget(relation.meta, payload, field);
  }
}

/** The collection an m2a value points into, named by the payload's collection field. */
function m2aTarget(meta: { oneCollectionField: string | null; oneAllowedCollections: string[] | null }, payload: Payload, field: string): string {
  const target = meta.oneCollectionField ? payload[meta.oneCollectionField] : undefined;
  if (typeof target !== 'string' || !(meta.oneAllowedCollections ?? []).includes(target)) {
    throw new InvalidPayloadError(`"${meta.oneCollectionField}" must name one of: ${(meta.oneAllowedCollections ?? []).join(', ')}.`, { field: meta.oneCollectionField ?? field });
  }
  return target;
}
