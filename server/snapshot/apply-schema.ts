import type { Kysely } from 'kysely';
import { CollectionsService } from '../services/collections-service.ts';
import { FieldsService } from '../services/fields-service.ts';
import { RelationsService } from '../services/relations-service.ts';
import { upsertFieldMeta } from '../services/schema/metadata-writes.ts';
import { currentSchema, noteSchemaChange } from '../services/schema/schema-change.ts';
import type { ServiceContext } from '../services/service-context.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import type { FieldMeta } from '../schema/types.ts';
import { sameValue } from './diff.ts';
import { normalizeDocument } from './normalize.ts';
import type { PlanStep } from './plan.ts';
import { schemaSections } from './read-snapshot.ts';
import { createCollection, createField, createRelation } from './create-schema.ts';
import type { SnapshotDocument, SnapshotField } from './types.ts';

/** Runs one step, naming it in any error: `field posts.body (update): …`. */
export async function runStep<T>(step: Pick<PlanStep, 'kind' | 'name' | 'action'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error) error.message = `${step.kind} ${step.name} (${step.action}): ${error.message}`;
    throw error;
  }
}

/** The column settings that differ (the fields service alters only what it is given). */
function changedColumn(current: SnapshotField, desired: SnapshotField): Record<string, unknown> | undefined {
  if (!desired.schema || !current.schema) return undefined;
  const changed = Object.entries(desired.schema).filter(([key, value]) => !sameValue((current.schema as unknown as Record<string, unknown>)[key], value));
  return changed.length > 0 ? Object.fromEntries(changed) : undefined;
}

/**
 * Applies the schema steps of a plan inside the caller's transaction `context.db`: drops and changes
 * through the collections, fields and relations services the API uses (they join the transaction),
 * creates straight from the snapshot (create-schema.ts), in the order relation drops, field drops,
 * collection drops, collection creates (with their fields), field creates and changes, relation creates
 * and changes; then metadata the services set on their own (m2o specials, reverse aliases, collection
 * groups) is brought to exactly what the snapshot says.
 */
export async function applySchemaSteps(
  context: ServiceContext,
  cache: SchemaCache,
  steps: PlanStep[],
  current: SnapshotDocument,
  desired: SnapshotDocument,
  progress: (step: PlanStep) => void,
): Promise<void> {
  const collections = new CollectionsService(context, cache);
  const fields = new FieldsService(context, cache);
  const relations = new RelationsService(context, cache);
  const desiredFields = new Map(desired.fields.map((field) => [`${field.collection}.${field.field}`, field]));
  const currentFields = new Map(current.fields.map((field) => [`${field.collection}.${field.field}`, field]));
  const desiredRelations = new Map(desired.relations.map((relation) => [`${relation.collection}.${relation.field}`, relation]));
  const split = (name: string) => {
    const dot = name.indexOf('.');
    return [name.slice(0, dot), name.slice(dot + 1)] as const;
  };
  const ofKind = (kind: PlanStep['kind'], action: PlanStep['action']) => steps.filter((step) => step.kind === kind && step.action === action);
  const run = async (step: PlanStep, work: () => Promise<unknown>) => {
    await runStep(step, work);
    progress(step);
  };

  for (const step of ofKind('relation', 'delete')) await run(step, () => relations.deleteOne(...split(step.name)));
  for (const step of ofKind('field', 'delete')) await run(step, () => fields.deleteOne(...split(step.name)));
  for (const step of ofKind('collection', 'delete')) await run(step, () => collections.deleteOne(step.name));

  const db = context.db as Kysely<any>;
  // Creates write straight to the transaction: the services' overview of it learns which collections they made.
  const created = (names: Array<string | null>) => noteSchemaChange(db, names.filter((name) => name !== null));
  for (const step of ofKind('collection', 'create')) {
    const collection = desired.collections.find((item) => item.collection === step.name)!;
    await run(step, () => createCollection(db, collection, desired.fields.filter((field) => field.collection === step.name)));
    created([collection.collection]);
  }
  for (const step of ofKind('field', 'create')) {
    const field = desiredFields.get(step.name)!;
    await run(step, () => createField(db, field));
    created([field.collection]);
  }
  for (const step of ofKind('field', 'update')) {
    const field = desiredFields.get(step.name)!;
    const existing = currentFields.get(step.name)!;
    const payload: Record<string, unknown> = { meta: { ...field.meta, group: null } };
    if (field.type !== existing.type) payload.type = field.type;
    const column = changedColumn(existing, field);
    if (column) payload.schema = column;
    await run(step, () => fields.updateOne(field.collection, field.field, payload));
  }
  for (const step of ofKind('relation', 'create')) {
    const relation = desiredRelations.get(step.name)!;
    await run(step, () => createRelation(db, relation, desired));
    created([relation.collection, relation.related_collection]);
  }
  for (const step of ofKind('relation', 'update')) {
    const relation = desiredRelations.get(step.name)!;
    await run(step, () => relations.updateOne(relation.collection, relation.field, { meta: relation.meta, ...(relation.schema ? { schema: relation.schema } : {}) }));
  }
  await settleMetadata(context, cache, collections, desired);
}

/**
 * Makes collection and field metadata exactly what the snapshot says. Services fill in metadata on their
 * own (an m2o special, a reverse alias, defaults), so after the structural steps the database is read
 * again (in the transaction) and every difference written.
 */
async function settleMetadata(context: ServiceContext, cache: SchemaCache, collections: CollectionsService, desired: SnapshotDocument): Promise<void> {
  const db = context.db as Kysely<any>;
  const actual = normalizeDocument({ version: desired.version, vendor: desired.vendor, ...schemaSections(await currentSchema(context, cache)) });
  const actualFields = new Map(actual.fields.map((field) => [`${field.collection}.${field.field}`, field]));
  for (const field of desired.fields) {
    const existing = actualFields.get(`${field.collection}.${field.field}`);
    if (existing && !sameValue(existing.meta, field.meta)) {
      await runStep({ kind: 'field', name: `${field.collection}.${field.field}`, action: 'update' }, () =>
        upsertFieldMeta(db, field.collection, field.field, field.meta as unknown as FieldMeta, field.meta as unknown as FieldMeta),
      );
      noteSchemaChange(db, [field.collection]);
    }
  }
  const actualCollections = new Map(actual.collections.map((collection) => [collection.collection, collection]));
  for (const collection of desired.collections) {
    const existing = actualCollections.get(collection.collection);
    if (existing && !sameValue(existing.meta, collection.meta)) {
      await runStep({ kind: 'collection', name: collection.collection, action: 'update' }, () => collections.updateOne(collection.collection, { meta: collection.meta }));
    }
  }
}
