import { SettingOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Checkbox, Popover, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';

const storageKey = (collection: string) => `tessera.columns.${collection}`;

/** The visible columns of a collection, kept in the browser per collection. */
export function useVisibleColumns(collection: string, defaults: string[], available: string[], preferred?: string[]): [string[], (next: string[]) => void] {
  const [visible, setVisible] = useState<string[]>(preferred ?? defaults);
  const chosen = useRef(false);
  useEffect(() => {
    // A saved view (the user's preset) wins over this browser's memory, until the user picks columns here.
    if (preferred && preferred.length > 0 && !chosen.current) return setVisible(preferred);
    const saved = window.localStorage.getItem(storageKey(collection));
    const parsed = saved ? (JSON.parse(saved) as string[]).filter((field) => available.includes(field)) : null;
    setVisible(parsed && parsed.length > 0 ? parsed : defaults);
  }, [collection, defaults.join(','), available.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const update = (next: string[]) => {
    chosen.current = true;
    setVisible(next);
    window.localStorage.setItem(storageKey(collection), JSON.stringify(next));
  };
  return [visible, update];
}

/** A popover with a checkbox per field: which columns the table shows. */
export function ColumnsChooser({ options, value, onChange }: { options: { value: string; label: string }[]; value: string[]; onChange: (next: string[]) => void }) {
  const translate = useTranslate();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={translate('content.list.columns')}
      content={
        <Checkbox.Group value={value} onChange={(next) => next.length > 0 && onChange(options.map((option) => option.value).filter((field) => next.includes(field)))}>
          <Space direction="vertical" style={{ maxHeight: 360, overflow: 'auto' }}>
            {options.map((option) => (
              <Checkbox key={option.value} value={option.value}>
                {option.label}
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      }
    >
      <Button icon={<SettingOutlined />} data-testid="columns-chooser">
        {translate('content.list.columns')}
      </Button>
    </Popover>
  );
}
