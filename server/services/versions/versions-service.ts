import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import * as yup from 'yup';
import { runTransaction } from '../../database/transaction-retry.ts';
import { ForbiddenError, InvalidPayloadError, RecordNotUniqueError, VersionOutdatedError } from '../../errors.ts';
import { resolveAccess } from '../../permissions/access.ts';
import { ItemsService, type ItemKey, type ItemsContext } from '../items/items-service.ts';
import { readableChanges } from '../items/readable-changes.ts';

type Payload = Record<string, unknown>;

/** A row of tessera_versions. */
export interface VersionRow {
  id: string;
  key: string;
  name: string | null;
  collection: string;
  item: string;
  hash: string | null;
}

const createSchema = yup
  .object({
    key: yup
      .string()
      .required('"key" is required.')
      .max(64, '"key" must be at most 64 characters.')
      .matches(/^[a-z0-9][a-z0-9_-]*$/i, '"key" may hold letters, digits, "-" and "_" only.')
      .test('not-main', '"key" cannot be "main".', (value) => value?.toLowerCase() !== 'main'),
    name: yup.string().nullable().max(255, '"name" must be at most 255 characters.'),
    collection: yup.string().required('"collection" is required.'),
    item: yup
      .mixed<string | number>()
      .required('"item" is required.')
      .test('key', '"item" must be a key.', (value) => typeof value === 'string' || typeof value === 'number'),
  })
  .noUnknown(true, (params: { unknown: string }) => `Unknown field "${params.unknown}".`);

const promoteSchema = yup.object({
  mainHash: yup.string(),
  fields: yup.array(yup.string().required()),
});

function validated<T>(schema: yup.Schema<T>, value: unknown): T {
  try {
    return schema.validateSync(value ?? {}, { strict: true, abortEarly: true });
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const field = error.path || (error.params?.unknown as string | undefined);
    throw new InvalidPayloadError(error.message, field ? { field } : {});
  }
}

/** Thrown inside a transaction to roll it back once the work has proved the write valid. */
const ROLLBACK = Symbol('rollback');

/**
 * Content versions (Directus 10 shapes): named drafts of one item of a collection with `versioning` on. A
 * version's changes live in tessera_revisions rows pointing at it; its current delta is their deltas merged
 * in order. Versions are visible to whoever can read the item; the /versions item routes stay governed by
 * the role's permissions on tessera_versions.
 */
export class VersionsService {
  readonly #context: ItemsContext;

  constructor(context: ItemsContext) {
    this.#context = context;
  }

  #items(collection: string, db = this.#context.db): ItemsService {
    return new ItemsService(collection, { ...this.#context, db, access: undefined });
  }

  /**
   * Creates a version of an item the caller can read (400 naming `item` otherwise, as for one that does not
   * exist) and may update (403 otherwise: a version is a draft of an update); returns its id.
   */
  async create(raw: unknown): Promise<string> {
    const input = validated(createSchema, raw);
    const overview = Object.hasOwn(this.#context.schema.collections, input.collection) ? this.#context.schema.collections[input.collection] : undefined;
    if (!overview || overview.system || !overview.table) throw new InvalidPayloadError(`Collection "${input.collection}" does not exist.`, { field: 'collection' });
    if (overview.meta?.versioning !== true) throw new InvalidPayloadError(`Collection "${input.collection}" does not have versioning enabled.`, { field: 'collection' });
    const item = String(input.item);
    const items = this.#items(input.collection);
    if (!(await items.isReadable(item))) throw new InvalidPayloadError(`Item "${item}" of "${input.collection}" does not exist.`, { field: 'item' });
    await items.normalizeAndCheck([item]);
    const db = this.#context.db;
    return runTransaction(db, async (trx) => {
      // Serialises creates of one item's versions so the uniqueness check below cannot race.
      await sql`select pg_advisory_xact_lock(hashtext(${`${input.collection}:${item}`}))`.execute(trx);
      const taken = await trx.selectFrom('tessera_versions').select('id').where('collection', '=', input.collection).where('item', '=', item).where('key', '=', input.key).executeTakeFirst();
      if (taken) throw new RecordNotUniqueError(`Item "${item}" already has a version "${input.key}".`, { field: 'key' });
      const user = this.#context.accountability.user ?? null;
      const row = await trx
        .insertInto('tessera_versions')
        .values({ key: input.key, name: input.name ?? null, collection: input.collection, item, hash: await mainHash(trx, overview.collection, overview.primary, item), user_created: user, user_updated: user })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id as string;
    });
  }

  /** A version whose item the caller can read (FORBIDDEN otherwise, and for a missing version). */
  async readVersion(id: string): Promise<VersionRow> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new ForbiddenError();
    const row = (await this.#context.db.selectFrom('tessera_versions').selectAll().where('id', '=', id).executeTakeFirst()) as VersionRow | undefined;
    if (!row) throw new ForbiddenError();
    await this.#assertReadable(row);
    return row;
  }

  /** The version of `collection`/`item` named `key`, for `?version=` reads. */
  async byKey(collection: string, item: ItemKey, key: string): Promise<VersionRow> {
    const row = (await this.#context.db.selectFrom('tessera_versions').selectAll().where('collection', '=', collection).where('item', '=', String(item)).where('key', '=', key).executeTakeFirst()) as VersionRow | undefined;
    if (!row) throw new InvalidPayloadError(`Item "${item}" has no version "${key}".`, { field: 'version' });
    await this.#assertReadable(row);
    return row;
  }

  async #assertReadable(row: VersionRow): Promise<void> {
    const overview = Object.hasOwn(this.#context.schema.collections, row.collection) ? this.#context.schema.collections[row.collection] : undefined;
    if (!overview?.table || !(await this.#items(row.collection).isReadable(row.item))) throw new ForbiddenError();
  }

  /** The version's changes: the deltas of its saves merged in order. */
  async delta(version: VersionRow): Promise<Payload> {
    const rows = await this.#context.db.selectFrom('tessera_revisions').select('delta').where('version', '=', version.id).orderBy('id').execute();
    return Object.assign({}, ...rows.map((row) => (row.delta ?? {}) as Payload));
  }

  /** The version's changes as this caller may see them: fields it cannot read left out, concealed ones masked. */
  async readableDelta(version: VersionRow): Promise<Payload> {
    const access = this.#context.access !== undefined ? this.#context.access : await resolveAccess(this.#context, this.#context.schema);
    return readableChanges(this.#context.schema, access, version.collection, await this.delta(version));
  }

  /**
   * Saves changes into a version. They are checked exactly as an update of the main item by this caller
   * (field allow-list, validation, presets, item rule, types) by running that update and rolling it back,
   * then kept as a revision pointing at the version. Returns the item as it reads with the version applied.
   */
  async save(id: string, raw: unknown): Promise<Payload> {
    const version = await this.readVersion(id);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidPayloadError('Send the changes as a JSON object.', { field: 'body' });
    const changes = raw as Payload;
    const overview = this.#context.schema.collections[version.collection]!;
    if (Object.hasOwn(changes, overview.primary)) throw new InvalidPayloadError(`"${overview.primary}" cannot be changed in a version.`, { field: overview.primary });
    try {
      await runTransaction(this.#context.db, async (trx) => {
        // A transaction of our own that the service must not treat as its own: the update's action hooks are
        // kept in this list (then dropped with the rollback) instead of being emitted when the update returns.
        const rehearsal = new ItemsService(version.collection, { ...this.#context, db: trx, access: undefined, written: new Set(), pendingActions: [] });
        await rehearsal.updateOne(version.item, changes);
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
    const accountability = this.#context.accountability;
    await runTransaction(this.#context.db, async (trx) => {
      const activity = await trx
        .insertInto('tessera_activity')
        .values({ action: 'version_save', collection: version.collection, item: version.item, user: accountability.user ?? null, ip: accountability.ip, user_agent: accountability.userAgent, origin: accountability.origin })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('tessera_revisions')
        .values({ activity: activity.id, collection: version.collection, item: version.item, data: JSON.stringify(changes), delta: JSON.stringify(changes), version: version.id })
        .execute();
      await trx.updateTable('tessera_versions').set({ date_updated: sql`now()`, user_updated: accountability.user ?? null }).where('id', '=', version.id).execute();
    });
    // As Directus: the state of the item after the save (main as the caller reads it, with the delta over
    // it), cut to what this caller may read: other users' saves may hold fields it cannot.
    const main = await this.#items(version.collection).readOne(version.item);
    return { ...main, ...(await this.readableDelta(version)) };
  }

  /** Main item against the version: `{ outdated, mainHash, current, main }` as Directus answers, both as the caller may read them. */
  async compare(id: string): Promise<{ outdated: boolean; mainHash: string; current: Payload; main: Payload }> {
    const version = await this.readVersion(id);
    const overview = this.#context.schema.collections[version.collection]!;
    const main = await this.#items(version.collection).readOne(version.item);
    const hash = await mainHash(this.#context.db, version.collection, overview.primary, version.item);
    return { outdated: hash !== version.hash, mainHash: hash, current: await this.readableDelta(version), main };
  }

  /**
   * Applies the version's changes (or the picked `fields`) to the main item in one transaction through the
   * caller's update. Refused when the main item changed since the version was made, unless `mainHash`
   * names its current state (the caller has seen it, e.g. in compare). Picked `fields` must be changes
   * the caller can see (compare's `current`); without them the whole delta goes through its update.
   */
  async promote(id: string, raw: unknown): Promise<ItemKey> {
    const version = await this.readVersion(id);
    const input = validated(promoteSchema, raw);
    const overview = this.#context.schema.collections[version.collection]!;
    const delta = await this.delta(version);
    const visible = input.fields ? await this.readableDelta(version) : delta;
    const unknown = (input.fields ?? []).find((field) => !Object.hasOwn(visible, field));
    if (unknown !== undefined) throw new InvalidPayloadError(`Field "${unknown}" has no change in this version.`, { field: 'fields' });
    const changes = input.fields ? Object.fromEntries(input.fields.map((field) => [field, delta[field]])) : delta;
    if (Object.keys(changes).length === 0) throw new InvalidPayloadError('This version has no changes to promote.', { field: 'fields' });
    return runTransaction(this.#context.db, async (trx) => {
      await trx.selectFrom(version.collection).select(sql.ref(overview.primary).as('key')).where(sql.ref(overview.primary), '=', version.item).forUpdate().execute();
      const current = await mainHash(trx, version.collection, overview.primary, version.item);
      const expected = input.mainHash ?? version.hash;
      if (current !== expected) {
        throw new VersionOutdatedError('The main item has changed since this version was made; compare again and pass its current "mainHash" to promote anyway.', { field: 'mainHash', mainHash: current });
      }
      await this.#items(version.collection, trx).updateOne(version.item, changes);
      // tessera_versions keeps the key as text: answer it as the main item's key type.
      return overview.fields[overview.primary]?.type === 'integer' ? Number(version.item) : version.item;
    });
  }
}

/** A hash of the main item's stored row (jsonb prints keys in a fixed order, so equal rows hash equal). */
export async function mainHash(db: ItemsContext['db'], collection: string, primary: string, item: string): Promise<string> {
  const row = await db
    .selectFrom(`${collection} as t`)
    .select(sql<string>`to_jsonb(t)::text`.as('data'))
    .where(sql.ref(`t.${primary}`), '=', item)
    .executeTakeFirst();
  return createHash('sha1').update(row?.data ?? '').digest('hex');
}
