import type { Kysely } from 'kysely';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError } from '../errors.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';

type ParentMap = Map<string, string | null>;

async function parents(db: Kysely<any>): Promise<ParentMap> {
  const rows = await db.selectFrom('tessera_folders').select(['id', 'parent']).execute();
  return new Map(rows.map((row) => [String(row.id), (row.parent as string | null) ?? null]));
}

/**
 * Folder moves and deletes. Folders form a tree through `parent`: a move may not put a folder under
 * itself, and deleting folders moves their files and subfolders up to the nearest remaining ancestor (or
 * the root). Every write goes through the items service as the caller, in one transaction.
 */
export class FoldersService {
  readonly #app: AppContext;
  readonly #accountability: Accountability;

  constructor(app: AppContext, accountability: Accountability) {
    this.#app = app;
    this.#accountability = accountability;
  }

  /** 400 naming `parent` when moving any of `keys` under `parent` would close a loop. */
  async assertMovable(keys: ItemKey[], parent: unknown): Promise<void> {
    if (parent === null || parent === undefined || typeof parent !== 'string') return;
    const tree = await parents(this.#app.database.kysely());
    const moving = new Set(keys.map(String));
    const seen = new Set<string>();
    for (let current: string | null = parent; current !== null && !seen.has(current); current = tree.get(current) ?? null) {
      if (moving.has(current)) throw new InvalidPayloadError("A folder can't be moved into itself or one of its subfolders.", { field: 'parent' });
      seen.add(current);
    }
  }

  /** Deletes folders; their files and subfolders move to the nearest ancestor that is not deleted. */
  async delete(keys: ItemKey[]): Promise<void> {
    const schema = await this.#app.schema.get();
    await this.#app.database
      .kysely()
      .transaction()
      .execute(async (trx) => {
        const context = { ...this.#app.servicesContext(this.#accountability, trx), schema };
        const folders = new ItemsService('tessera_folders', context);
        const files = new ItemsService('tessera_files', context);
        const deleting = new Set(keys.map(String));
        const tree = await parents(trx);
        const survivor = (id: string): string | null => {
          let current = tree.get(id) ?? null;
          while (current !== null && deleting.has(current)) current = tree.get(current) ?? null;
          return current;
        };
        for (const id of deleting) {
          if (!tree.has(id)) continue;
          const target = survivor(id);
          const fileKeys = await files.keysWhere('folder', id);
          if (fileKeys.length > 0) await files.updateMany(fileKeys, { folder: target });
          const childKeys = (await folders.keysWhere('parent', id)).filter((child) => !deleting.has(String(child)));
          if (childKeys.length > 0) await folders.updateMany(childKeys, { parent: target });
        }
        await folders.deleteMany(keys);
      });
  }
}
