import { Space, Tag, Typography } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { collectionLabel } from '../navigation.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { anyCollectionOf, anyRowLabel, type AnyTarget } from './many-to-any-rows.ts';

/** The items of a many-to-any value as tags: each item's collection, then the item by that collection's template. */
export function ManyToAnyDisplay({ value, target }: { value: unknown[]; target: AnyTarget }) {
  const schema = useSchema();
  const { locale } = usePreferences();
  const rows = value.filter((row): row is Record<string, unknown> => Boolean(row) && typeof row === 'object');
  if (rows.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={4} wrap>
      {rows.map((row, index) => {
        const collection = anyCollectionOf(row, target);
        const info = collection ? schema.collection(collection.collection) : undefined;
        return (
          <Tag key={index} bordered={false}>
            <Typography.Text type="secondary">{info ? collectionLabel(info, locale, 'singular') : String(row[target.any.collectionField] ?? '')}:</Typography.Text> {anyRowLabel(row, target)}
          </Tag>
        );
      })}
    </Space>
  );
}
