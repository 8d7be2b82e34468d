import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useCan, useDelete, useList, useTranslation } from '@refinedev/core';
import { Button, Card, Col, Empty, Popconfirm, Row, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useFormat } from '../../app/use-format.ts';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { DashboardForm } from './dashboard-form.tsx';
import type { DashboardRecord } from './panel-types.ts';
import { DASHBOARD_FIELDS } from './use-dashboard.ts';

/** Insights: the dashboards the caller may read, as cards (icon, colour, note), with create/edit/delete. */
export default function DashboardsPage() {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const format = useFormat();
  const [editing, setEditing] = useState<DashboardRecord | 'new' | null>(null);
  const { result, query } = useList<DashboardRecord>({ resource: 'dashboards', pagination: { mode: 'off' }, sorters: [{ field: 'name', order: 'asc' }], meta: { fields: DASHBOARD_FIELDS } });
  const { mutateAsync: remove } = useDelete();
  const { data: canCreate } = useCan({ resource: 'dashboards', action: 'create' });
  const { data: canEdit } = useCan({ resource: 'dashboards', action: 'edit' });
  const { data: canDelete } = useCan({ resource: 'dashboards', action: 'delete' });
  const dashboards = result.data ?? [];

  return (
    <>
      <PageHeader
        title={translate('insights.title')}
        subtitle={translate('insights.subtitle')}
        testId="insights-title"
        actions={
          canCreate?.can ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="dashboard-create">
              {translate('insights.dashboard.create')}
            </Button>
          ) : null
        }
      />
      {query.isLoading ? (
        <Spin />
      ) : dashboards.length === 0 ? (
        <Card>
          <Empty description={translate('insights.empty')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {dashboards.map((dashboard) => (
            <Col key={dashboard.id} xs={24} sm={12} lg={8} xl={6}>
              <Card
                hoverable
                data-testid={`dashboard-card-${dashboard.name}`}
                onClick={() => navigate(`/insights/${dashboard.id}`)}
                style={{ borderTop: `4px solid ${dashboard.color || 'transparent'}`, height: '100%' }}
                actions={[
                  ...(canEdit?.can ? [<EditOutlined key="edit" aria-label={translate('insights.dashboard.edit')} title={translate('insights.dashboard.edit')} data-testid={`dashboard-edit-${dashboard.name}`} onClick={(event) => { event.stopPropagation(); setEditing(dashboard); }} />] : []),
                  ...(canDelete?.can
                    ? [
                        <span key="delete" onClick={(event) => event.stopPropagation()}>
                          <Popconfirm title={translate('insights.dashboard.deleteConfirm')} okText={translate('shared.actions.delete')} cancelText={translate('shared.actions.cancel')} okButtonProps={{ danger: true }} onConfirm={() => remove({ resource: 'dashboards', id: dashboard.id, successNotification: false })}>
                            <DeleteOutlined aria-label={translate('shared.actions.delete')} title={translate('shared.actions.delete')} data-testid={`dashboard-delete-${dashboard.name}`} />
                          </Popconfirm>
                        </span>,
                      ]
                    : []),
                ]}
              >
                <Card.Meta
                  avatar={<span style={{ fontSize: 26 }}><CollectionIcon name={dashboard.icon} color={dashboard.color} /></span>}
                  title={dashboard.name}
                  description={
                    <>
                      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 4, minHeight: 22 }}>
                        {dashboard.note || '\u00a0'}
                      </Typography.Paragraph>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {format.date(dashboard.date_created, 'date')}
                      </Typography.Text>
                    </>
                  }
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      <DashboardForm
        open={editing !== null}
        dashboard={editing === 'new' ? null : editing}
        onClose={(created) => {
          setEditing(null);
          if (created) navigate(`/insights/${created}`);
        }}
      />
    </>
  );
}
