import { sql, type Kysely, type Transaction } from 'kysely';
import * as yup from 'yup';
import type { Accountability } from '../../auth/accountability.ts';
import { statementsRecorded } from '../../cache/statement-recorder.ts';
import { answerDependsOnCaller } from '../../cache/answer-dependence.ts';
import { runTransaction } from '../../database/transaction-retry.ts';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import { flushItemActions, type PendingActions } from '../../events/item-events.ts';
import { ItemsService, type ItemsContext } from '../items/items-service.ts';
import { mentionedUsers, withMentionNames } from './mentions.ts';
import { refuseInheritedNames } from '../../own-keys.ts';

/** What the comments service works with: an items context, for the items' read checks. */
export type CommentsContext = ItemsContext;

const commentText = yup
  .string()
  .strict()
  .trim()
  .required('"comment" is required.')
  .typeError('"comment" must be a string.')
  .test('no-nul', '"comment" cannot contain NUL characters.', (value) => !value?.includes('\u0000'));

const createSchema = yup.object({
  collection: yup.string().strict().required('"collection" is required.').typeError('"collection" must be a string.'),
  item: yup.mixed<string | number>().required('"item" is required.').test('key', '"item" must be a string or a number.', (value) => typeof value === 'string' || typeof value === 'number'),
  comment: commentText,
});

function validated<T>(schema: yup.Schema<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidPayloadError('The body must be an object.');
  refuseInheritedNames(body);
  try {
    return schema.validateSync(body, { abortEarly: true, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) throw new InvalidPayloadError(error.message, { field: error.path ?? 'comment' });
    throw error;
  }
}

const denied = () => new ForbiddenError("You don't have permission to access this.");

/** At most this many comments of one item are listed (newest kept out beyond it: a discussion, not a log). */
const COMMENTS_LIMIT = 500;

/** One comment as the item's discussion shows it (names and avatar only: never an e-mail address). */
export interface CommentEntry {
  id: number;
  comment: string;
  timestamp: unknown;
  user: { id: string; name: string; first_name: string | null; last_name: string | null; avatar: string | null } | null;
}

/** A comment with the item it is on. */
export interface ItemComment extends CommentEntry {
  collection: string;
  item: string;
}

/** A user's name for others: first and last name, else "Unnamed user" (never the e-mail address). */
function displayName(user: { first_name?: unknown; last_name?: unknown }): string {
  return [user.first_name, user.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ') || 'Unnamed user';
}

/** A comment row (joined with its author) as an entry. */
function commentEntry(row: Record<string, unknown>): CommentEntry {
  const user = row.user ? { id: row.user as string, name: displayName(row), first_name: (row.first_name as string | null) ?? null, last_name: (row.last_name as string | null) ?? null, avatar: (row.avatar as string | null) ?? null } : null;
  return { id: row.id as number, comment: row.comment as string, timestamp: row.timestamp, user };
}

/**
 * Comments on items (activity rows with action `comment`) and the notifications their mentions create,
 * both written through the ItemsService. Returns the ids of the notifications written; they are e-mailed
 * by the `tessera_notifications.items.create` action after the commit.
 */
export class CommentsService {
  readonly #context: CommentsContext;

  constructor(context: CommentsContext) {
    this.#context = context;
  }

  /** Comments on an item the caller can read; unknown and unreadable items are both 403. */
  async create(body: unknown): Promise<{ id: number; notifications: number[] }> {
    const input = validated(createSchema, body);
    const item = String(input.item);
    const { accountability } = this.#context;
    if (!accountability.user) throw denied();
    if (!(await this.#readable(input.collection, item))) throw denied();
    return this.#write(async (trx, items) => {
      const id = await items('tessera_activity').createOne({ action: 'comment', collection: input.collection, item, comment: input.comment, user: accountability.user, ip: accountability.ip, user_agent: accountability.userAgent, origin: accountability.origin });
      const notifications = await this.#notifyMentions(trx, items, input.collection, item, input.comment, mentionedUsers(input.comment));
      return { id: Number(id), notifications };
    });
  }

  /**
   * The comments on an item the caller can read, oldest first, each with its author's name and avatar,
   * and the names of the users the comments mention. SPEC §6 lets app users read only their own activity;
   * an item's discussion is shared with everyone who may read the item, so it is listed here, and nothing
   * else of the activity log or of the users (no e-mail addresses) comes with it.
   */
  async list(collection: unknown, item: unknown): Promise<{ comments: CommentEntry[]; mentions: Record<string, string> }> {
    if (typeof collection !== 'string' || collection === '') throw new InvalidPayloadError('"collection" is required.', { field: 'collection' });
    if (typeof item !== 'string' || item === '') throw new InvalidPayloadError('"item" is required.', { field: 'item' });
    const { accountability, db } = this.#context;
    if (!accountability.user) throw denied();
    if (!(await this.#readable(collection, item))) throw denied();
    const rows = await db
      .selectFrom('tessera_activity as a')
      .leftJoin('tessera_users as u', 'u.id', 'a.user')
      .select(['a.id', 'a.comment', 'a.timestamp', 'a.user', 'u.first_name', 'u.last_name', 'u.avatar'])
      .where('a.action', '=', 'comment')
      .where('a.collection', '=', collection)
      .where('a.item', '=', item)
      .orderBy('a.id')
      .limit(COMMENTS_LIMIT)
      .execute();
    const comments = rows.map(commentEntry);
    const mentioned = [...new Set(comments.flatMap((entry) => mentionedUsers(entry.comment ?? '')))];
    const mentions: Record<string, string> = {};
    if (mentioned.length > 0) {
      for (const user of await db.selectFrom('tessera_users').select(['id', 'first_name', 'last_name']).where('id', 'in', mentioned).execute()) mentions[user.id as string] = displayName(user);
    }
    return { comments, mentions };
  }

  /** One comment, to whoever may read the item it is on; a missing comment and an unreadable item are both 403. */
  async readOne(id: string | number): Promise<ItemComment> {
    if (!/^\d{1,15}$/.test(String(id))) throw denied();
    const { accountability, db } = this.#context;
    if (!accountability.user && !accountability.admin) throw denied();
    const row = await db
      .selectFrom('tessera_activity as a')
      .leftJoin('tessera_users as u', 'u.id', 'a.user')
      .select(['a.id', 'a.collection', 'a.item', 'a.comment', 'a.timestamp', 'a.user', 'u.first_name', 'u.last_name', 'u.avatar'])
      .where('a.id', '=', Number(id))
      .where('a.action', '=', 'comment')
      .executeTakeFirst();
    if (!row || !(await this.#readable(row.collection as string, row.item as string))) throw denied();
    return { ...commentEntry(row), collection: row.collection as string, item: row.item as string };
  }

  /**
   * Active users a comment on this item could mention (names and avatars only), for the mention picker;
   * the caller must be able to read the item. Whether a mention notifies someone is still decided by their
   * own permissions when the comment is written.
   */
  async mentionable(collection: unknown, item: unknown, search: unknown): Promise<Array<{ id: string; name: string; avatar: string | null }>> {
    if (typeof collection !== 'string' || typeof item !== 'string') throw new InvalidPayloadError('"collection" and "item" are required.', { field: 'collection' });
    const { accountability, db } = this.#context;
    if (!accountability.user) throw denied();
    if (!(await this.#readable(collection, item))) throw denied();
    // The answer leaves the caller out: it is theirs alone, never to be shared with another of their role.
    answerDependsOnCaller();
    const term = typeof search === 'string' ? search.trim().slice(0, 100) : '';
    let query = db.selectFrom('tessera_users').select(['id', 'first_name', 'last_name', 'avatar']).where('status', '=', 'active').where('id', '<>', accountability.user).orderBy('first_name').orderBy('last_name').limit(10);
    if (term) {
      const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      query = query.where((eb) => eb.or([eb('first_name', 'ilike', pattern), eb('last_name', 'ilike', pattern), eb(sql`concat_ws(' ', first_name, last_name)`, 'ilike', pattern)]));
    }
    return (await query.execute()).map((user) => ({ id: user.id as string, name: displayName(user), avatar: (user.avatar as string | null) ?? null }));
  }

  /** Edits one's own comment (admins: any); only users mentioned for the first time are notified. */
  async update(id: string, body: unknown): Promise<{ id: number; notifications: number[] }> {
    const { comment } = validated(yup.object({ comment: commentText }), body);
    return this.#write(async (trx, items) => {
      const row = await this.#ownComment(trx, id);
      await items('tessera_activity').updateOne(row.id, { comment });
      const before = new Set(mentionedUsers(row.comment ?? ''));
      const added = mentionedUsers(comment).filter((user) => !before.has(user));
      return { id: row.id, notifications: await this.#notifyMentions(trx, items, row.collection, row.item, comment, added) };
    });
  }

  /** Deletes one's own comment (admins: any). */
  async delete(id: string): Promise<void> {
    await this.#write(async (trx, items) => {
      const row = await this.#ownComment(trx, id);
      await items('tessera_activity').deleteOne(row.id);
    });
  }

  /**
   * Runs `work` in one transaction whose item writes go through the ItemsService, so the events, filters,
   * webhooks and flows of tessera_activity and tessera_notifications see them as any other write. They run
   * as the caller (the events carry the author) without the caller's permissions: this service has already
   * decided what the caller may do, and notifying someone is not a right the author holds. Actions are
   * emitted once the transaction commits (e-mails of the notifications among them).
   */
  async #write<T>(work: (trx: Transaction<any>, items: (collection: string) => ItemsService) => Promise<T>): Promise<T> {
    const written = new Set<string>();
    const pendingActions: PendingActions = [];
    const result = await runTransaction(this.#context.db, (trx) => {
      // A retried transaction starts over.
      written.clear();
      pendingActions.length = 0;
      return work(trx, (collection) => new ItemsService(collection, { ...this.#context, db: trx, access: null, written, pendingActions }));
    });
    flushItemActions(pendingActions);
    // An HTTP request purges what it wrote once it has finished; other callers here.
    if (!statementsRecorded()) await this.#context.responseCache?.purgeWritten(written);
    return result;
  }

  /** The comment row, locked; 403 when it is not a comment or (for non-admins) not the caller's. */
  async #ownComment(trx: Transaction<any>, id: string): Promise<{ id: number; collection: string; item: string; comment: string | null }> {
    if (!/^\d{1,15}$/.test(id)) throw denied();
    const { accountability } = this.#context;
    const row = await trx.selectFrom('tessera_activity').select(['id', 'collection', 'item', 'comment', 'user']).where('id', '=', Number(id)).where('action', '=', 'comment').forUpdate().executeTakeFirst();
    if (!row || (!accountability.admin && (!accountability.user || row.user !== accountability.user))) throw denied();
    return row;
  }

  /** Whether `accountability` (the caller by default) may read the item; an unknown collection or item: no. */
  async #readable(collection: string, item: string, accountability = this.#context.accountability, db: Kysely<any> = this.#context.db): Promise<boolean> {
    if (!Object.hasOwn(this.#context.schema.collections, collection) || !this.#context.schema.collections[collection]!.table) return false;
    return new ItemsService(collection, { ...this.#context, accountability, db, access: undefined }).isReadable(item);
  }

  /**
   * One notification per mentioned user who can read the item with their own permissions: never the
   * author, never a user who does not exist, is not active or cannot read it (nothing tells them apart).
   */
  async #notifyMentions(trx: Transaction<any>, items: (collection: string) => ItemsService, collection: string, item: string, comment: string, users: string[]): Promise<number[]> {
    const sender = this.#context.accountability.user;
    const candidates = users.filter((user) => user !== sender);
    if (candidates.length === 0) return [];
    const rows = await trx
      .selectFrom('tessera_users as u')
      .leftJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.id', 'u.role', 'r.admin_access', 'r.app_access'])
      .where('u.id', 'in', candidates)
      .where('u.status', '=', 'active')
      .execute();
    const recipients: string[] = [];
    for (const user of rows) {
      const theirs: Accountability = { user: user.id, role: user.role, admin: user.admin_access === true, app: user.app_access === true, ip: null, userAgent: null, origin: null, session: null, share: null };
      if (await this.#readable(collection, item, theirs, trx)) recipients.push(user.id);
    }
    if (recipients.length === 0) return [];
    const author = sender ? await trx.selectFrom('tessera_users').select(['first_name', 'last_name', 'email']).where('id', '=', sender).executeTakeFirst() : undefined;
    const name = [author?.first_name, author?.last_name].filter(Boolean).join(' ') || author?.email || 'Someone';
    const names: Record<string, string> = {};
    for (const user of await trx.selectFrom('tessera_users').select(['id', 'first_name', 'last_name']).where('id', 'in', mentionedUsers(comment)).execute()) names[String(user.id).toLowerCase()] = displayName(user);
    const message = withMentionNames(comment, names);
    const keys = await items('tessera_notifications').createMany(recipients.map((recipient) => ({ recipient, sender, status: 'inbox', subject: `${name} mentioned you in a comment`, message, collection, item })));
    return keys.map(Number);
  }
}
