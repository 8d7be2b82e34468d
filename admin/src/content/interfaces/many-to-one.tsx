import { useTranslate } from '@refinedev/core';
import { Alert } from 'antd';
import { useEffect, useState } from 'react';
import { apiData } from '../../providers/http-client.ts';
import { itemPath } from '../../providers/resource-paths.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { RelatedPicker } from './related-picker.tsx';
import { keyOf, labelFields, relatedTarget } from './related.ts';
import type { InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;

/** Many-to-one: pick one related item, shown with the related collection's display template. */
export function ManyToOneInterface({ field, value, onChange, disabled }: InterfaceProps<Item | string | number>) {
  const schema = useSchema();
  const translate = useTranslate();
  const target = relatedTarget(schema, field);
  const [resolved, setResolved] = useState<Item | null>(null);
  const key = target ? keyOf(value, target.primaryKey) : null;

  useEffect(() => {
    // A bare key (e.g. from a preset) is read once so the picker can show its label.
    if (!target || key === null || (value && typeof value === 'object')) return setResolved(null);
    let live = true;
    void apiData<Item>(itemPath(target.collection, key), { query: { fields: labelFields(schema, target.collection) } })
      .then((item) => live && setResolved(item))
      .catch(() => live && setResolved({ [target.primaryKey]: key }));
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!target) return <Alert type="warning" showIcon message={translate('content.relation.missing')} />;
  const current = value && typeof value === 'object' ? value : resolved;
  return (
    <RelatedPicker
      id={`field-${field.field}`}
      target={target}
      value={current}
      disabled={disabled}
      allowClear
      placeholder={translate('content.relation.pick')}
      onPick={(item) => onChange?.(item)}
    />
  );
}
