import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Card, Space, Switch, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePreferences } from '../../app/preferences.tsx';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { collectionLabel } from '../../content/navigation.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { CollectionInfo } from '../../content/schema/types.ts';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { CreateCollectionModal } from './create-collection-modal.tsx';

interface CollectionRow {
  key: string;
  info: CollectionInfo;
  children?: CollectionRow[];
}

/** User collections nested under their group (folders and groups), ordered by sort then name. */
function collectionTree(collections: CollectionInfo[], showSystem: boolean): CollectionRow[] {
  const visible = collections.filter((collection) => showSystem || !collection.collection.startsWith('tessera_'));
  const names = new Set(visible.map((collection) => collection.collection));
  const order = (a: CollectionInfo, b: CollectionInfo) => (a.meta?.sort ?? 1e9) - (b.meta?.sort ?? 1e9) || a.collection.localeCompare(b.collection);
  const build = (parent: string | null, seen: Set<string>): CollectionRow[] =>
    visible
      .filter((collection) => {
        const group = collection.meta?.group ?? null;
        return parent === null ? group === null || !names.has(group) : group === parent;
      })
      .filter((collection) => !seen.has(collection.collection))
      .sort(order)
      .map((info) => {
        const children = build(info.collection, new Set([...seen, info.collection]));
        return { key: info.collection, info, children: children.length > 0 ? children : undefined };
      });
  const roots = build(null, new Set());
  // System collections last, whatever their sort.
  return [...roots.filter((row) => !row.key.startsWith('tessera_')), ...roots.filter((row) => row.key.startsWith('tessera_'))];
}

/** The data model: every collection (groups and folders nested), and a way to create one. */
function CollectionsScreen() {
  const { translate } = useTranslation();
  const { locale } = usePreferences();
  const schema = useSchema();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [showSystem, setShowSystem] = useState(false);
  const rows = useMemo(() => collectionTree(schema.collections, showSystem), [schema.collections, showSystem]);

  return (
    <>
      <PageHeader
        title={translate('dataModel.title')}
        subtitle={translate('dataModel.subtitle')}
        testId="data-model-title"
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="data-model-create">
            {translate('dataModel.collections.create')}
          </Button>
        }
      />
      <Card
        size="small"
        title={translate('dataModel.collections.title')}
        extra={
          <Space>
            <Typography.Text type="secondary">{translate('dataModel.collections.showSystem')}</Typography.Text>
            <Switch size="small" checked={showSystem} onChange={setShowSystem} data-testid="data-model-show-system" />
          </Space>
        }
      >
        <Table<CollectionRow>
          scroll={{ x: 'max-content' }}
          rowKey="key"
          size="middle"
          loading={schema.loading}
          dataSource={rows}
          pagination={false}
          expandable={{ defaultExpandAllRows: true }}
          locale={{ emptyText: translate('dataModel.collections.empty') }}
          onRow={(row) => ({ onClick: () => navigate(`/data-model/${encodeURIComponent(row.key)}`), style: { cursor: 'pointer' }, 'data-testid': `collection-row-${row.key}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: translate('dataModel.collections.name'),
              key: 'name',
              render: (_, row) => (
                <Space>
                  <CollectionIcon name={row.info.meta?.icon ?? null} folder={!row.info.schema} color={row.info.meta?.color} />
                  <Typography.Text strong>{collectionLabel(row.info, locale)}</Typography.Text>
                  <Typography.Text type="secondary" code>
                    {row.key}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: translate('dataModel.collections.kind'),
              key: 'kind',
              width: 260,
              render: (_, row) => (
                <Space size={4} wrap>
                  {!row.info.schema ? <Tag>{translate('dataModel.collections.folder')}</Tag> : null}
                  {row.info.meta?.singleton ? <Tag color="purple">{translate('dataModel.collections.singleton')}</Tag> : null}
                  {row.info.meta?.hidden ? <Tag>{translate('dataModel.collections.hidden')}</Tag> : null}
                  {row.key.startsWith('tessera_') ? <Tag color="blue">{translate('dataModel.collections.system')}</Tag> : null}
                </Space>
              ),
            },
            { title: translate('dataModel.collections.note'), key: 'note', render: (_, row) => <Typography.Text type="secondary">{row.info.meta?.note ?? ''}</Typography.Text> },
          ]}
        />
      </Card>
      <CreateCollectionModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => {
          setCreating(false);
          navigate(`/data-model/${encodeURIComponent(name)}`);
        }}
      />
    </>
  );
}

/** The data model's list screen (administrators only). */
export default function CollectionsPage() {
  return (
    <AdminOnly>
      <CollectionsScreen />
    </AdminOnly>
  );
}
