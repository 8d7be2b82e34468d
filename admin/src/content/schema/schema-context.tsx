import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { apiData } from '../../providers/http-client.ts';
import { orderFields } from './field-order.ts';
import type { CollectionInfo, FieldInfo, RelationInfo } from './types.ts';

/** The schema the signed-in user may see: collections, fields and relations. */
export interface SchemaState {
  collections: CollectionInfo[];
  fields: FieldInfo[];
  relations: RelationInfo[];
  loading: boolean;
  error: string | null;
  /** Re-reads everything (the data-model screens call this after a change). */
  reload(): Promise<void>;
  collection(name: string): CollectionInfo | undefined;
  fieldsOf(collection: string): FieldInfo[];
  /** The relation stored on a field (m2o), or the one whose o2m alias it is. */
  relationOf(collection: string, field: string): RelationInfo | undefined;
  /** The primary key field of a collection (default `id`). */
  primaryKeyOf(collection: string): string;
}

const SchemaContext = createContext<SchemaState | null>(null);

/** What the schema endpoints answered. */
export interface SchemaData {
  collections: CollectionInfo[];
  fields: FieldInfo[];
  relations: RelationInfo[];
}

/** The schema state of answers already read, with its lookups (fields in form order). */
export function schemaStateOf(data: SchemaData, status: Pick<SchemaState, 'loading' | 'error' | 'reload'>): SchemaState {
  const byCollection = new Map<string, FieldInfo[]>();
  for (const field of data.fields) {
    const list = byCollection.get(field.collection) ?? [];
    list.push(field);
    byCollection.set(field.collection, list);
  }
  for (const [collection, list] of byCollection) byCollection.set(collection, orderFields(list));
  return {
    ...data,
    ...status,
    collection: (name) => data.collections.find((collection) => collection.collection === name),
    fieldsOf: (collection) => byCollection.get(collection) ?? [],
    relationOf: (collection, field) =>
      data.relations.find((relation) => relation.collection === collection && relation.field === field) ??
      data.relations.find((relation) => relation.related_collection === collection && relation.meta?.one_field === field),
    primaryKeyOf: (collection) => byCollection.get(collection)?.find((field) => field.schema?.is_primary_key)?.field ?? 'id',
  };
}

/** A schema read some other way (the public share page reads it as the share): displays inside it use it. */
export function StaticSchemaProvider({ schema, children }: { schema: SchemaState; children: ReactNode }) {
  return <SchemaContext value={schema}>{children}</SchemaContext>;
}

/** Loads `/collections`, `/fields` and `/relations` once per sign-in. */
export function SchemaProvider({ children }: { children: ReactNode }) {
  const [data, setData] = useState<SchemaData>({ collections: [], fields: [], relations: [] });
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [collections, fields, relations] = await Promise.all([
        apiData<CollectionInfo[]>('/collections'),
        apiData<FieldInfo[]>('/fields'),
        apiData<RelationInfo[]>('/relations'),
      ]);
      setData({ collections: collections ?? [], fields: fields ?? [], relations: relations ?? [] });
      setError(null);
    } catch (failure) {
      setError((failure as Error).message ?? 'The schema could not be read');
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const value = useMemo<SchemaState>(() => schemaStateOf(data, { loading, error, reload }), [data, loading, error, reload]);

  return <SchemaContext value={value}>{children}</SchemaContext>;
}

/** The schema of the signed-in user (inside the signed-in layout). */
export function useSchema(): SchemaState {
  const value = useContext(SchemaContext);
  if (!value) throw new Error('useSchema needs <SchemaProvider>');
  return value;
}
