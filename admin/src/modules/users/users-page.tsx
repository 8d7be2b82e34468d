import { MailOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useCan, useNotification, useSelect, useTranslation } from '@refinedev/core';
import { App, Avatar, Button, Card, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRoleText } from '../../app/system-labels.ts';
import { useFormat } from '../../app/use-format.ts';
import { PageHeader } from '../shared/page-header.tsx';
import { mailTransport } from '../../app/mail-transport.ts';
import { CreateUserModal } from './create-user-modal.tsx';
import { InviteModal } from './invite-modal.tsx';
import { STATUS_COLOURS, USER_LIST_FIELDS, USER_STATUSES, displayName, type UserRecord } from './user-options.ts';

/** Users: search, filter by status and role, invite, open one. */
export default function UsersPage() {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const { open } = useNotification();
  const [inviting, setInviting] = useState(false);
  const [creating, setCreating] = useState(false);
  const { modal } = App.useApp();
  const [search, setSearch] = useState('');
  const { data: canInvite } = useCan({ resource: 'users', action: 'create' });
  const roleText = useRoleText();
  const format = useFormat();
  const { options: roles } = useSelect<{ id: string; name: string }>({ resource: 'roles', optionLabel: (role) => roleText.name(role.name), optionValue: 'id', pagination: { mode: 'off' }, meta: { fields: ['id', 'name'] } });
  const { tableProps, setFilters, tableQuery } = useTable<UserRecord>({
    resource: 'users',
    syncWithLocation: false,
    sorters: { initial: [{ field: 'email', order: 'asc' }] },
    pagination: { pageSize: 25 },
    meta: { fields: USER_LIST_FIELDS, search: search || undefined },
  });
  const filterBy = (field: string, value: string | undefined) => setFilters([{ field, operator: 'eq', value }], 'merge');

  return (
    <>
      <PageHeader
        title={translate('users.title')}
        testId="users-title"
        actions={
          canInvite?.can ? (
            <Space wrap>
              <Button icon={<UserAddOutlined />} onClick={() => setCreating(true)} data-testid="users-create">
                {translate('users.create.title')}
              </Button>
              <Button type="primary" icon={<MailOutlined />} onClick={() => setInviting(true)} data-testid="users-invite">
                {translate('users.invite.title')}
              </Button>
            </Space>
          ) : null
        }
      />
      <Card size="small">
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Input.Search allowClear placeholder={translate('users.search')} style={{ width: 260 }} onSearch={setSearch} data-testid="users-search" />
          <Select allowClear placeholder={translate('users.fields.status')} style={{ width: 170 }} options={USER_STATUSES.map((status) => ({ value: status, label: translate(`users.status.${status}`) }))} onChange={(value: string | undefined) => filterBy('status', value)} />
          <Select allowClear placeholder={translate('users.fields.role')} style={{ width: 200 }} options={roles} onChange={(value: string | undefined) => filterBy('role', value)} />
        </Flex>
        <Table<UserRecord>
          scroll={{ x: 'max-content' }}
          {...tableProps}
          rowKey="id"
          onRow={(user) => ({ onClick: () => navigate(`/users/${user.id}`), style: { cursor: 'pointer' }, 'data-testid': `user-row-${user.email}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: translate('users.fields.name'),
              key: 'name',
              render: (_, user) => (
                <Space style={{ whiteSpace: 'nowrap' }}>
                  <Avatar size="small">{displayName(user).slice(0, 1).toUpperCase()}</Avatar>
                  <Typography.Text strong>{displayName(user)}</Typography.Text>
                  {user.title ? <Typography.Text type="secondary">{user.title}</Typography.Text> : null}
                </Space>
              ),
            },
            { title: translate('users.fields.email'), dataIndex: 'email', key: 'email', sorter: true },
            { title: translate('users.fields.role'), key: 'role', render: (_, user) => (typeof user.role === 'object' && user.role ? roleText.name(user.role.name) : '') },
            { title: translate('users.fields.status'), dataIndex: 'status', key: 'status', sorter: true, render: (status: UserRecord['status']) => <Tag color={STATUS_COLOURS[status]}>{translate(`users.status.${status}`)}</Tag> },
            { title: translate('users.fields.lastAccess'), dataIndex: 'last_access', key: 'last_access', sorter: true, render: (value: string | null) => (value ? format.date(value) : '—') },
          ]}
        />
      </Card>
      <InviteModal
        open={inviting}
        onClose={() => setInviting(false)}
        onInvited={(count) => {
          setInviting(false);
          void tableQuery.refetch();
          // Without a mail service the invitations are files on the server: say where, or the admin waits for mail that never leaves.
          void mailTransport().then((transport) => {
            if (transport === 'outbox') modal.warning({ title: translate('users.invite.toOutbox', { count }), content: <span data-testid="invite-outbox-notice">{translate('users.invite.outbox')}</span> });
            else open?.({ type: 'success', message: translate('users.invite.sent', { count }) });
          });
        }}
      />
      <CreateUserModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          navigate(`/users/${encodeURIComponent(id)}`);
        }}
      />
    </>
  );
}
