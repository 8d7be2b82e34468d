import { ForbiddenError } from '../../errors.ts';
import type { ItemKey, ItemsContext } from './items-service.ts';
import { ItemsService } from './items-service.ts';
import { isServerManaged } from './server-managed-fields.ts';

/**
 * Restores an item to the data a revision holds, as an ordinary update (validated, with its own activity
 * and revision). Fields that no longer exist are skipped; masked secrets stay as they are, and so do
 * server-managed columns (a file's content stays the content it has now).
 */
export async function revertRevision(context: ItemsContext, revisionId: number): Promise<void> {
  // Read as the caller: a revision it may not read cannot be reverted to.
  const [revision] = await new ItemsService('tessera_revisions', context).readMany([revisionId], { fields: ['collection', 'item', 'data'] });
  const overview = revision ? context.schema.collections[revision.collection as string] : undefined;
  if (!revision || !overview || !revision.data) throw new ForbiddenError();
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(revision.data as Record<string, unknown>)) {
    const target = overview.fields[field];
    if (target && !target.alias && !target.primaryKey && !isServerManaged(overview.collection, field)) data[field] = value;
  }
  await new ItemsService(overview.collection, context).updateOne(revision.item as ItemKey, data);
}
