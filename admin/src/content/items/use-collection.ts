import { useMemo } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { collectionLabel } from '../navigation.ts';
import { relatedTarget, labelFields } from '../interfaces/related.ts';
import { useSchema } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';

/** Everything the item screens need about one collection: its info, fields, labels and permissions. */
export function useCollection(name: string) {
  const schema = useSchema();
  const { locale } = usePreferences();
  const permissions = usePermissionIndex();
  return useMemo(() => {
    const info = schema.collection(name);
    const fields = schema.fieldsOf(name);
    const primaryKey = schema.primaryKeyOf(name);
    const targetOf = (field: FieldInfo) => relatedTarget(schema, field);
    return {
      schema,
      info,
      fields,
      primaryKey,
      label: info ? collectionLabel(info, locale) : name,
      singularLabel: info ? collectionLabel(info, locale, 'singular') : name,
      permissions,
      targetOf,
      labelFieldsOf: (collection: string) => labelFields(schema, collection),
      can: (action: 'create' | 'read' | 'update' | 'delete') => permissions?.can(name, action) ?? false,
      canField: (action: 'create' | 'update', field: string) => permissions?.canField(name, action, field) ?? false,
    };
  }, [schema, name, locale, permissions]);
}
