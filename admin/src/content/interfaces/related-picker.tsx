import { UserOutlined } from '@ant-design/icons';
import { Avatar, Select, Space } from 'antd';
import { assetUrl } from '../../app/project-settings.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { apiData } from '../../providers/http-client.ts';
import { resourcePath } from '../../providers/resource-paths.ts';
import { renderTemplate } from '../display-template.ts';
import { labelFields, USERS_COLLECTION } from './related.ts';
import { useSchema } from '../schema/schema-context.tsx';
import type { RelatedTarget } from './related.ts';

type Item = Record<string, unknown>;

/** Searches a related collection as the user types and returns the picked item (with its label fields). */
export function RelatedPicker({
  target,
  value,
  onPick,
  exclude = [],
  disabled,
  placeholder,
  id,
  allowClear,
}: {
  target: RelatedTarget;
  value?: Item | null;
  onPick: (item: Item | null) => void;
  exclude?: (string | number)[];
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  allowClear?: boolean;
}) {
  const schema = useSchema();
  const [items, setItems] = useState<Item[]>([]);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const fields = useMemo(() => labelFields(schema, target.collection), [schema, target.collection]);

  const search = (term: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      setLoading(true);
      try {
        const found = await apiData<Item[]>(resourcePath(target.collection), { query: { fields, search: term || undefined, limit: 20 } });
        setItems(found ?? []);
      } catch {
        setItems([]);
      } finally {
        setLoading(false);
      }
    }, 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  const excluded = new Set(exclude.map(String));
  const known = new Map<string, Item>();
  for (const item of [...(value ? [value] : []), ...items]) known.set(String(item[target.primaryKey]), item);
  const options = [...known.values()]
    .filter((item) => !excluded.has(String(item[target.primaryKey])) || item === value)
    .map((item) => {
      const text = renderTemplate(target.template, item, target.primaryKey);
      // A user picker shows each user's avatar (select-dropdown-m2o to users, as Directus's user picker does).
      if (target.collection !== USERS_COLLECTION) return { value: String(item[target.primaryKey]), label: text };
      const avatar = typeof item.avatar === 'string' ? assetUrl(item.avatar, { width: 48, height: 48, fit: 'cover' }) : undefined;
      return {
        value: String(item[target.primaryKey]),
        title: text,
        label: (
          <Space size={6} data-testid="user-option">
            <Avatar size={20} src={avatar} icon={<UserOutlined />} />
            {text}
          </Space>
        ),
      };
    });

  return (
    <Select
      id={id}
      showSearch
      filterOption={false}
      value={value ? String(value[target.primaryKey]) : undefined}
      options={options}
      loading={loading}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder}
      onSearch={search}
      onOpenChange={(open) => open && search('')}
      onChange={(key) => onPick(key === undefined ? null : (known.get(String(key)) ?? null))}
      style={{ width: '100%' }}
      notFoundContent={loading ? '…' : undefined}
    />
  );
}
