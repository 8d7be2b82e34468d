import { sql, type RawBuilder } from 'kysely';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import { ForbiddenError, PreconditionFailedError } from '../../errors.ts';
import type { Sql } from '../../query/context.ts';
import { itemVersionKey, itemVersionSql } from '../../query/item-version.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { etagOf, type ExpectedVersions } from './expected-versions.ts';
import type { ItemKey } from './item-keys.ts';
import type { Query } from '../../query/types.ts';
import type { ItemsContext, ItemsService } from './items-service.ts';

/** Narrows a SELECT to the items the caller's rule for the write's action reaches (ItemRows.withinRule). */
type WithinRule = <T extends { where: (...args: any[]) => T }>(builder: T) => T;

/** One item a write with If-Match did not find at an expected version. */
export interface StaleItem {
  key: ItemKey;
  /** Its current version, as ETag sends it. */
  etag: string;
  /** Its current values, when the caller may read it (added by the transport, with the caller's read rule). */
  item?: Record<string, unknown>;
}

/** The version side of a write with If-Match: the WHERE condition, and what to answer when an item fails it. */
export class StaleCheck {
  readonly #collection: string;
  readonly #overview: CollectionOverview;
  readonly #context: ItemsContext;
  readonly #within: WithinRule;

  constructor(collection: string, overview: CollectionOverview, context: ItemsContext, within: WithinRule) {
    this.#collection = collection;
    this.#overview = overview;
    this.#context = context;
    this.#within = within;
  }

  get collection(): string {
    return this.#collection;
  }

  #version(): Sql {
    return itemVersionSql(this.#overview, itemVersionKey(this.#context.config.secret));
  }

  /** True for a row (of the UPDATE's or DELETE's own table) at one of the expected versions. */
  atVersion(expected: ExpectedVersions): RawBuilder<boolean> {
    return sql<boolean>`${this.#version()} = any(${[...expected.tags]}::text[])`;
  }

  /** The version of the row an UPDATE leaves, as a RETURNING column named `version`. */
  newVersion() {
    return sql<string>`${this.#version()}`.as('version');
  }

  /** Current versions of the listed items the caller's rule reaches, by key text; `lock` holds them until the transaction ends. */
  async versions(keys: ItemKey[], lock = false): Promise<Map<string, string>> {
    const primary = this.#overview.primary;
    const select = this.#within(
      this.#context.db
        .selectFrom(this.#collection)
        .select([sql.ref(primary).as('key'), sql<string>`${this.#version()}`.as('version')])
        .where(sql.ref(primary), 'in', keys),
    );
    const rows = await withDatabaseErrors(() => (lock ? select.forUpdate() : select).execute());
    return new Map(rows.map((row) => [String(row.key), row.version as string]));
  }

  /**
   * FORBIDDEN unless every item exists within the rule, 412 unless each is at an expected version; returns
   * their versions by key text. The rows stay locked, so the write that follows in the transaction changes
   * the versions it checked.
   */
  async assertAt(keys: ItemKey[], expected: ExpectedVersions): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const current = await this.versions(keys, true);
    if (current.size !== new Set(keys.map(String)).size) throw new ForbiddenError();
    const stale = keys.filter((key) => !expected.tags.includes(current.get(String(key))!));
    if (stale.length > 0) throw staleError(this.#collection, stale.map((key) => ({ key, etag: etagOf(current.get(String(key))!) })));
    return current;
  }
}

/**
 * What a write with If-Match answers when it reached fewer rows than `keys` (`written`: those it reached):
 * FORBIDDEN when one of them does not exist or is outside the rule (so existence never leaks), else 412 with
 * the others' current versions. The caller throws it, and the transaction rolls back what was written.
 */
export async function refuseStale(check: StaleCheck, keys: ItemKey[], written: ItemKey[]): Promise<Error> {
  const done = new Set(written.map(String));
  const stale = keys.filter((key) => !done.has(String(key)));
  // Only the keys the write did not reach: a DELETE's own rows are gone by now.
  const current = await check.versions(stale);
  if (current.size !== new Set(stale.map(String)).size) return new ForbiddenError();
  return staleError(check.collection, stale.map((key) => ({ key, etag: etagOf(current.get(String(key))!) })));
}

function staleError(collection: string, conflicts: StaleItem[]): PreconditionFailedError {
  const message =
    conflicts.length === 1
      ? `Item "${conflicts[0]!.key}" of "${collection}" changed since you read it (If-Match): its current version is ${conflicts[0]!.etag}.`
      : `${conflicts.length} items of "${collection}" changed since you read them (If-Match).`;
  return new PreconditionFailedError(message, { collection, conflicts });
}

/**
 * Adds to a 412's conflicts each item's current values as the caller may read them (with `query`'s fields),
 * read with its version in one statement so the pair is consistent; a caller who may update but not read
 * gets the versions alone. Returns the conflicts.
 */
export async function addCurrentItems(service: ItemsService, error: PreconditionFailedError, query: Query): Promise<StaleItem[]> {
  const conflicts = error.extensions.conflicts as StaleItem[];
  const primary = service.primaryKeyField;
  // The key tells the items apart; it is read even when `fields` leaves it out, and dropped again.
  const addKey = query.fields !== undefined && !query.fields.includes('*') && !query.fields.includes(primary);
  try {
    const { items, versions } = await service.readManyVersioned(
      conflicts.map((conflict) => conflict.key),
      addKey ? { ...query, fields: [...query.fields!, primary] } : query,
    );
    items.forEach((item, index) => {
      const conflict = conflicts.find((candidate) => String(candidate.key) === String(item[primary]));
      if (!conflict) return;
      if (addKey) delete item[primary];
      conflict.item = item;
      conflict.etag = etagOf(versions[index]!);
    });
  } catch (readError) {
    if (!(readError instanceof ForbiddenError)) throw readError;
  }
  return conflicts;
}
