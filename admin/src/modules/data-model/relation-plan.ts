/**
 * Relation creation as API steps. The API makes a relation from fields that exist, so a many-to-one,
 * one-to-many or many-to-many takes a field (or a junction collection) and then one or two relations;
 * each plan also lists how to undo the steps already done when a later one fails. Pure logic.
 */

/**
 * Kinds of relation the data model screen creates: `files` is a many-to-many to the file library, `image`
 * a many-to-one to it shown as an image, `translations` a many-to-many to a languages collection whose
 * junction rows hold the translated fields.
 */
export const RELATION_KINDS = ['m2o', 'o2m', 'm2m', 'm2a', 'translations', 'files', 'image'] as const;
/** A relation kind. */
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Key types a foreign-key column can take (it must match the related primary key). */
export type KeyType = 'integer' | 'bigInteger' | 'uuid' | 'string';

/** What the relation form holds. */
export interface RelationInput {
  kind: RelationKind;
  /** The collection the new field is added to. */
  collection: string;
  /** The new field on `collection` (m2o: the key column; o2m, m2m and m2a: the alias listing related items). */
  field: string;
  /** The related collection (m2a: none, see `allowed`). */
  related: string;
  /** m2a: the collections whose items the field may hold. */
  allowed?: string[] | null;
  /** o2m: the key column created on the related collection; m2o: the optional o2m alias on the related one. */
  reverseField?: string | null;
  /** m2m: name of the junction collection. */
  junction?: string | null;
  /** translations: create the languages collection (`related`) first, with these languages. */
  createLanguages?: Array<{ code: string; name: string }> | null;
  onDelete?: 'SET NULL' | 'CASCADE' | 'NO ACTION' | 'RESTRICT';
  deselectAction?: 'nullify' | 'delete';
}

/** The system collection of files: a many-to-one to it is a file field. */
export const FILES_COLLECTION = 'tessera_files';

/** The languages collection a translations field creates when the project has none: code (its key) and name. */
export const LANGUAGES_COLLECTION = 'languages';

/** One API call of a plan. */
export interface ApiStep {
  method: 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown> | Array<Record<string, unknown>>;
}

/** The calls that create a relation, in order, and for each the call that undoes it. */
export interface RelationPlan {
  steps: ApiStep[];
  undo: Array<ApiStep | null>;
}

/** The column type of a key pointing at a primary key of `keyType`. */
function keyColumn(field: string, keyType: KeyType, meta: Record<string, unknown> = {}): Record<string, unknown> {
  return { field, type: keyType, meta, schema: keyType === 'string' ? { max_length: 255 } : {} };
}

function encode(name: string): string {
  return encodeURIComponent(name);
}

/** Default names the form suggests: `<collection>_<related>` junctions (m2a: `<collection>_<field>`) and `<collection>_id` keys. */
export function suggestedNames(input: Pick<RelationInput, 'kind' | 'collection' | 'related'> & { field?: string }): { junction: string; reverseField: string } {
  const suffix = input.kind === 'm2a' ? input.field || 'items' : input.kind === 'translations' ? 'translations' : input.kind === 'files' ? 'files' : input.related;
  return { junction: `${input.collection}_${suffix}`, reverseField: `${input.collection}_id` };
}

/** The collection a kind points at whatever the form says (files and images), or the form's choice. */
export function relatedOf(input: Pick<RelationInput, 'kind' | 'related'>): string {
  return input.kind === 'files' || input.kind === 'image' ? FILES_COLLECTION : input.related;
}

/** The junction fields of a many-to-any: the item's key (text, whatever the collection's key type) and its collection. */
export const M2A_ITEM_FIELD = 'item';
export const M2A_COLLECTION_FIELD = 'collection';

/**
 * The plan for a relation. `keyTypes` gives each involved collection's primary key type. m2m junction
 * keys are `<collection>_id` and `<related>_id` (`<related>_related_id` when both are the same).
 */
export function planRelation(input: RelationInput, keyTypes: Readonly<Record<string, KeyType>>): RelationPlan {
  const keyOf = (collection: string): KeyType => keyTypes[collection] ?? 'integer';
  const onDelete = input.onDelete ?? 'SET NULL';
  const deselect = input.deselectAction ?? 'nullify';
  switch (input.kind) {
    case 'image':
    case 'm2o': {
      const reverse = input.reverseField?.trim() || null;
      return {
        steps: [
          // A file is chosen in the file library (thumbnails, upload), any other item in a searchable picker.
          { method: 'POST', path: `/fields/${encode(input.collection)}`, body: keyColumn(input.field, keyOf(relatedOf(input)), { interface: input.kind === 'image' ? 'file-image' : relatedOf(input) === FILES_COLLECTION ? 'file' : 'select-dropdown-m2o', special: ['m2o'] }) },
          {
            method: 'POST',
            path: '/relations',
            body: { collection: input.collection, field: input.field, related_collection: relatedOf(input), meta: { one_field: reverse, one_deselect_action: deselect }, schema: { on_delete: onDelete } },
          },
        ],
        undo: [{ method: 'DELETE', path: `/fields/${encode(input.collection)}/${encode(input.field)}` }, null],
      };
    }
    case 'o2m': {
      const key = input.reverseField?.trim() || suggestedNames(input).reverseField;
      return {
        steps: [
          { method: 'POST', path: `/fields/${encode(input.related)}`, body: keyColumn(key, keyOf(input.collection), { hidden: true }) },
          {
            method: 'POST',
            path: '/relations',
            body: { collection: input.related, field: key, related_collection: input.collection, meta: { one_field: input.field, one_deselect_action: deselect }, schema: { on_delete: onDelete } },
          },
        ],
        undo: [{ method: 'DELETE', path: `/fields/${encode(input.related)}/${encode(key)}` }, null],
      };
    }
    case 'm2m':
    case 'files':
    case 'translations':
      return junctionPlan(input, keyOf);
    case 'm2a': {
      const junction = input.junction?.trim() || suggestedNames(input).junction;
      const ownKey = `${input.collection}_id`;
      const text = (field: string) => ({ field, type: 'string', meta: { hidden: true }, schema: { max_length: 255 } });
      return {
        steps: [
          {
            method: 'POST',
            path: '/collections',
            body: { collection: junction, meta: { hidden: true, icon: 'import_export' }, schema: {}, fields: [keyColumn(ownKey, keyOf(input.collection), { hidden: true }), text(M2A_ITEM_FIELD), text(M2A_COLLECTION_FIELD)] },
          },
          // The item key has no foreign key: it points into a different table per row.
          {
            method: 'POST',
            path: '/relations',
            body: { collection: junction, field: M2A_ITEM_FIELD, related_collection: null, meta: { one_collection_field: M2A_COLLECTION_FIELD, one_allowed_collections: input.allowed ?? [], junction_field: ownKey }, schema: null },
          },
          {
            method: 'POST',
            path: '/relations',
            body: { collection: junction, field: ownKey, related_collection: input.collection, meta: { one_field: input.field, junction_field: M2A_ITEM_FIELD, one_deselect_action: deselect }, schema: { on_delete: 'CASCADE' } },
          },
        ],
        undo: [{ method: 'DELETE', path: `/collections/${encode(junction)}` }, null, null],
      };
    }
  }
}

/**
 * A many-to-many through a new junction: plain (the alias made by the relation), files (`files` special)
 * or translations (`translations` special; rows deleted when deselected; the languages collection made
 * first when asked).
 */
function junctionPlan(input: RelationInput, keyOf: (collection: string) => KeyType): RelationPlan {
  const related = relatedOf(input);
  const junction = input.junction?.trim() || suggestedNames(input).junction;
  const ownKey = `${input.collection}_id`;
  const relatedKeyType = input.kind === 'translations' && input.createLanguages ? 'string' : keyOf(related);
  const relatedKey = related === input.collection ? `${related}_related_id` : input.kind === 'translations' && relatedKeyType === 'string' ? `${related}_code` : `${related}_id`;
  const deselect = input.kind === 'translations' ? 'delete' : (input.deselectAction ?? 'nullify');
  const steps: ApiStep[] = [];
  const undo: Array<ApiStep | null> = [];
  if (input.kind === 'translations' && input.createLanguages) {
    steps.push({
      method: 'POST',
      path: '/collections',
      body: { collection: related, meta: { icon: 'translate', display_template: '{{name}}' }, fields: [{ field: 'code', type: 'string', schema: { is_primary_key: true, max_length: 255 } }, { field: 'name', type: 'string' }] },
    });
    undo.push({ method: 'DELETE', path: `/collections/${encode(related)}` });
    if (input.createLanguages.length > 0) {
      steps.push({ method: 'POST', path: `/items/${encode(related)}`, body: input.createLanguages });
      undo.push(null);
    }
  }
  steps.push({
    method: 'POST',
    path: '/collections',
    body: { collection: junction, meta: { hidden: true, icon: 'import_export' }, schema: {}, fields: [keyColumn(ownKey, keyOf(input.collection), { hidden: true }), keyColumn(relatedKey, relatedKeyType, { hidden: true })] },
  });
  // Dropping the junction drops its relations and the alias they made.
  undo.push({ method: 'DELETE', path: `/collections/${encode(junction)}` });
  if (input.kind !== 'm2m') {
    steps.push({ method: 'POST', path: `/fields/${encode(input.collection)}`, body: { field: input.field, type: 'alias', meta: { special: [input.kind], interface: input.kind } } });
    undo.push({ method: 'DELETE', path: `/fields/${encode(input.collection)}/${encode(input.field)}` });
  }
  steps.push(
    { method: 'POST', path: '/relations', body: { collection: junction, field: ownKey, related_collection: input.collection, meta: { one_field: input.field, junction_field: relatedKey, one_deselect_action: deselect }, schema: { on_delete: 'CASCADE' } } },
    { method: 'POST', path: '/relations', body: { collection: junction, field: relatedKey, related_collection: related, meta: { junction_field: ownKey }, schema: { on_delete: 'CASCADE' } } },
  );
  undo.push(null, null);
  return { steps, undo };
}

/** The key type of a collection from its fields (its primary key's type); integer when unknown. */
export function primaryKeyType(fields: ReadonlyArray<{ type: string; schema: { is_primary_key?: boolean } | null }>): KeyType {
  const key = fields.find((field) => field.schema?.is_primary_key);
  const type = key?.type;
  return type === 'bigInteger' || type === 'uuid' || type === 'string' ? type : 'integer';
}

/** The calls that undo the steps done before step `failedAt` failed, last first. */
export function undoSteps(plan: RelationPlan, failedAt: number): ApiStep[] {
  return plan.undo.slice(0, failedAt).filter((step): step is ApiStep => step !== null).reverse();
}
