import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Flex, Input, Select } from 'antd';
import { REPEATER_TYPES, type RepeaterField } from '../../content/interfaces/repeater-fields.ts';
import { FIELD_NAME_PATTERN } from './field-types.ts';

/** The repeater's own fields (`options.fields`): a key, a label and a type per row. */
export function RepeaterFieldsInput({ value, onChange }: { value?: RepeaterField[]; onChange?: (value: RepeaterField[]) => void }) {
  const { translate } = useTranslation();
  const rows = Array.isArray(value) ? value : [];
  const set = (index: number, patch: Partial<RepeaterField>) =>
    onChange?.(rows.map((row, at) => (at === index ? { ...row, ...patch, ...(patch.type ? { meta: { ...row.meta, interface: REPEATER_TYPES[patch.type] } } : {}) } : row)));
  return (
    <div data-testid="repeater-fields">
      {rows.map((row, index) => (
        <Flex key={index} gap={8} style={{ marginBottom: 8 }}>
          <Input
            value={row.field}
            status={row.field && !FIELD_NAME_PATTERN.test(row.field) ? 'error' : undefined}
            placeholder={translate('dataModel.options.fieldKey')}
            onChange={(event) => set(index, { field: event.target.value })}
            data-testid={`repeater-field-key-${index}`}
          />
          <Input value={row.name ?? ''} placeholder={translate('dataModel.options.fieldName')} onChange={(event) => set(index, { name: event.target.value })} data-testid={`repeater-field-name-${index}`} />
          <Select
            style={{ width: 160, flex: 'none' }}
            value={row.type}
            options={Object.keys(REPEATER_TYPES).map((type) => ({ value: type, label: translate(`dataModel.types.${type}`) }))}
            onChange={(type: string) => set(index, { type })}
            data-testid={`repeater-field-type-${index}`}
          />
          <Button type="text" aria-label={translate('shared.actions.remove')} icon={<MinusCircleOutlined />} onClick={() => onChange?.(rows.filter((_, at) => at !== index))} />
        </Flex>
      ))}
      <Button type="dashed" icon={<PlusOutlined />} onClick={() => onChange?.([...rows, { field: '', name: '', type: 'string', meta: { interface: 'input' } }])} data-testid="repeater-field-add">
        {translate('dataModel.options.addField')}
      </Button>
    </div>
  );
}
