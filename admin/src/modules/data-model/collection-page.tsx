import { ArrowLeftOutlined, BranchesOutlined, DeleteOutlined, GroupOutlined, PlusOutlined } from '@ant-design/icons';
import { useDelete, useTranslation } from '@refinedev/core';
import { Button, Card, Col, Popconfirm, Result, Row, Space, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePreferences } from '../../app/preferences.tsx';
import { collectionLabel } from '../../content/navigation.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { FieldInfo } from '../../content/schema/types.ts';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { CollectionSettingsForm } from './collection-settings-form.tsx';
import { FieldDrawer } from './field-drawer.tsx';
import { GroupModal } from './group-modal.tsx';
import { IndexAdvicePanel } from './index-advice-panel.tsx';
import { FieldsTable } from './fields-table.tsx';
import { RelationDrawer } from './relation-drawer.tsx';

/** One collection of the data model: its fields (ordered, created, edited, related) and its settings. */
function CollectionScreen({ name }: { name: string }) {
  const { translate } = useTranslation();
  const { locale } = usePreferences();
  const schema = useSchema();
  const navigate = useNavigate();
  const { mutateAsync: remove } = useDelete();
  const [editing, setEditing] = useState<FieldInfo | null>(null);
  const [fieldOpen, setFieldOpen] = useState(false);
  const [relationOpen, setRelationOpen] = useState(false);
  const [groupOpen, setGroupOpen] = useState(false);
  const collection = schema.collection(name);
  const system = name.startsWith('tessera_');

  if (!collection) {
    return schema.loading ? null : <Result status="404" title={translate('dataModel.collection.notFound')} extra={<Button onClick={() => navigate('/data-model')}>{translate('shared.actions.back')}</Button>} />;
  }
  const fields = schema.fieldsOf(name);
  const folder = !collection.schema;

  return (
    <>
      <PageHeader
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/data-model')} aria-label={translate('shared.actions.back')} />
            <span data-testid="collection-title">{collectionLabel(collection, locale)}</span>
            <Tag>{name}</Tag>
            {folder ? <Tag>{translate('dataModel.collections.folder')}</Tag> : null}
          </Space>
        }
        actions={
          system ? null : (
            <Popconfirm
              title={translate('dataModel.collection.deleteConfirm')}
              okText={translate('shared.actions.delete')}
              cancelText={translate('shared.actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await remove({ resource: 'collections', id: name, successNotification: false });
                await schema.reload();
                navigate('/data-model');
              }}
            >
              <Button danger icon={<DeleteOutlined />}>
                {translate('dataModel.collection.delete')}
              </Button>
            </Popconfirm>
          )
        }
      />
      <Row gutter={[24, 24]}>
        <Col span={24}>
          <Card
            size="small"
            title={translate('dataModel.fields.title')}
            extra={
              system ? null : (
                <Space wrap>
                  <Button icon={<BranchesOutlined />} onClick={() => setRelationOpen(true)} disabled={folder} data-testid="relation-create">
                    {translate('dataModel.relation.create')}
                  </Button>
                  <Button icon={<GroupOutlined />} onClick={() => setGroupOpen(true)} disabled={folder} data-testid="group-create">
                    {translate('dataModel.group.create')}
                  </Button>
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => {
                      setEditing(null);
                      setFieldOpen(true);
                    }}
                    disabled={folder}
                    data-testid="field-create"
                  >
                    {translate('dataModel.field.create')}
                  </Button>
                </Space>
              )
            }
          >
            <FieldsTable
              collection={name}
              fields={fields}
              indexable={!system && !folder}
              onEdit={(field) => {
                setEditing(field);
                setFieldOpen(true);
              }}
              onChanged={schema.reload}
            />
          </Card>
        </Col>
        {system || folder ? null : (
          <Col span={24}>
            <IndexAdvicePanel collection={name} onChanged={schema.reload} />
          </Col>
        )}
        <Col span={24}>
          <Card size="small" title={translate('dataModel.settings.title')}>
            {system ? <Result status="info" subTitle={translate('dataModel.collection.systemReadOnly')} /> : <CollectionSettingsForm collection={collection} fields={fields} />}
          </Card>
        </Col>
      </Row>
      <FieldDrawer
        collection={name}
        field={editing}
        siblings={fields}
        open={fieldOpen}
        onClose={() => setFieldOpen(false)}
        onSaved={async () => {
          setFieldOpen(false);
          await schema.reload();
        }}
      />
      <GroupModal
        collection={name}
        siblings={fields}
        open={groupOpen}
        onClose={() => setGroupOpen(false)}
        onSaved={async () => {
          setGroupOpen(false);
          await schema.reload();
        }}
      />
      <RelationDrawer collection={name} open={relationOpen} onClose={() => setRelationOpen(false)} onSaved={() => setRelationOpen(false)} />
    </>
  );
}

/** The route element of /data-model/:collection. */
export default function CollectionPage() {
  const { collection = '' } = useParams();
  return (
    <AdminOnly>
      <CollectionScreen name={collection} />
    </AdminOnly>
  );
}
