import { DeleteOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, List, theme } from 'antd';
import { renderTemplate } from '../display-template.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { RelatedPicker } from './related-picker.tsx';
import { keyOf, relatedTarget } from './related.ts';
import type { InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;

/**
 * One-to-many and many-to-many (files too): the related items in a list, each removable, and a picker
 * to add existing ones. o2m values are related items; m2m values are junction rows whose junction field
 * holds the related item (new rows have no junction key yet). The item form turns them into keys.
 */
export function ToManyInterface({ field, value, onChange, disabled }: InterfaceProps<Item[]>) {
  const schema = useSchema();
  const translate = useTranslate();
  const { token } = theme.useToken();
  const target = relatedTarget(schema, field);
  if (!target) return <Alert type="warning" showIcon message={translate('content.relation.missing')} />;
  const rows = Array.isArray(value) ? value.filter((row) => row && typeof row === 'object') : [];
  const related = (row: Item): Item | null => {
    if (!target.junction) return row;
    const inner = row[target.junction.field];
    return inner && typeof inner === 'object' ? (inner as Item) : inner === null || inner === undefined ? null : { [target.primaryKey]: inner };
  };
  const chosen = rows.map((row) => keyOf(related(row), target.primaryKey)).filter((key): key is string | number => key !== null);

  return (
    <div data-testid={`to-many-${field.field}`}>
      <List
        size="small"
        bordered
        locale={{ emptyText: translate('content.relation.none') }}
        dataSource={rows}
        style={{ marginBottom: 8, background: token.colorBgContainer }}
        renderItem={(row, index) => (
          <List.Item
            actions={
              disabled
                ? []
                : [<Button key="remove" type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.relation.remove')} onClick={() => onChange?.(rows.filter((_, at) => at !== index))} />]
            }
          >
            {renderTemplate(target.template, related(row), target.primaryKey)}
          </List.Item>
        )}
      />
      {!disabled && (
        <RelatedPicker
          target={target}
          value={null}
          exclude={chosen}
          placeholder={translate('content.relation.add')}
          onPick={(item) => {
            if (!item) return;
            onChange?.([...rows, target.junction ? { [target.junction.field]: item } : item]);
          }}
        />
      )}
    </div>
  );
}
