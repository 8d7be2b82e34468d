import { CheckCircleFilled, CloseCircleOutlined, DownOutlined, MinusCircleFilled, SafetyCertificateOutlined } from '@ant-design/icons';
import { useNotification, useTranslation } from '@refinedev/core';
import { Button, Collapse, Dropdown, Space, Table, Tooltip, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { collectionLabel } from '../../content/navigation.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { CollectionInfo } from '../../content/schema/types.ts';
import { PermissionDrawer } from './permission-drawer.tsx';
import {
  ALL_ACCESS,
  PERMISSION_ACTIONS,
  cellKey,
  cellState,
  collectionState,
  hasAppDefault,
  rowTargets,
  type CellTarget,
  type PermissionAction,
} from './permission-matrix.ts';
import { useRolePermissions, type MatrixRole } from './use-role-permissions.ts';

/** One cell: its state icon, and a menu to set none, all or custom. */
function Cell({ collection, action, matrix, appAccess, onCustom }: { collection: string; action: PermissionAction; matrix: ReturnType<typeof useRolePermissions>; appAccess: boolean; onCustom(): void }) {
  const { translate } = useTranslation();
  const { token } = theme.useToken();
  const row = matrix.index.get(cellKey(collection, action));
  const state = cellState(row);
  const fromDefaults = state === 'none' && appAccess && hasAppDefault(collection, action);
  const icon =
    state === 'all' ? <CheckCircleFilled style={{ color: token.colorSuccess, fontSize: 18 }} />
    : state === 'custom' ? <MinusCircleFilled style={{ color: token.colorWarning, fontSize: 18 }} />
    : fromDefaults ? <SafetyCertificateOutlined style={{ color: token.colorInfo, fontSize: 18 }} />
    : <CloseCircleOutlined style={{ color: token.colorTextQuaternary, fontSize: 18 }} />;
  const label = translate(fromDefaults ? 'roles.matrix.state.default' : `roles.matrix.state.${state}`);
  const set = (setting: CellTarget['setting']) => void matrix.apply([{ collection, action, setting }]);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'all', label: translate('roles.matrix.setAll'), icon: <CheckCircleFilled style={{ color: token.colorSuccess }} />, onClick: () => set(ALL_ACCESS) },
          { key: 'none', label: translate(fromDefaults || (appAccess && hasAppDefault(collection, action)) ? 'roles.matrix.setDefault' : 'roles.matrix.setNone'), icon: <CloseCircleOutlined />, onClick: () => set(null) },
          { key: 'custom', label: translate('roles.matrix.setCustom'), icon: <MinusCircleFilled style={{ color: token.colorWarning }} />, onClick: onCustom },
        ],
      }}
    >
      <Tooltip title={label}>
        <Button type="text" icon={icon} aria-label={`${collection} ${action}: ${label}`} data-testid={`cell-${collection}-${action}`} data-state={fromDefaults ? 'default' : state} />
      </Tooltip>
    </Dropdown>
  );
}

/** The matrix rows of some collections. */
function MatrixTable({ collections, matrix, appAccess, onCustom }: { collections: CollectionInfo[]; matrix: ReturnType<typeof useRolePermissions>; appAccess: boolean; onCustom(target: { collection: string; action: PermissionAction }): void }) {
  const { translate } = useTranslation();
  const { locale } = usePreferences();
  return (
    <Table<CollectionInfo>
      scroll={{ x: 'max-content' }}
      rowKey="collection"
      size="small"
      pagination={false}
      dataSource={collections}
      loading={matrix.loading}
      locale={{ emptyText: translate('roles.matrix.noCollections') }}
      columns={[
        {
          title: translate('roles.matrix.collection'),
          key: 'collection',
          render: (_, collection) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{collectionLabel(collection, locale)}</Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {collection.collection}
              </Typography.Text>
            </Space>
          ),
        },
        ...PERMISSION_ACTIONS.map((action) => ({
          title: translate(`roles.actions.${action}`),
          key: action,
          width: 96,
          align: 'center' as const,
          render: (_: unknown, collection: CollectionInfo) => <Cell collection={collection.collection} action={action} matrix={matrix} appAccess={appAccess} onCustom={() => onCustom({ collection: collection.collection, action })} />,
        })),
        {
          key: 'row',
          width: 110,
          align: 'right' as const,
          render: (_: unknown, collection: CollectionInfo) => {
            const state = collectionState(matrix.index, collection.collection);
            return (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'all', label: translate('roles.matrix.rowAll'), disabled: state === 'all', onClick: () => void matrix.apply(rowTargets(collection.collection, 'all')) },
                    { key: 'none', label: translate('roles.matrix.rowNone'), disabled: state === 'none', onClick: () => void matrix.apply(rowTargets(collection.collection, 'none')) },
                  ],
                }}
              >
                <Button size="small" type="text" data-testid={`row-${collection.collection}`}>
                  {translate('roles.matrix.row')} <DownOutlined />
                </Button>
              </Dropdown>
            );
          },
        },
      ]}
    />
  );
}

/**
 * The permission matrix of a role: user collections × create/read/update/delete/share, system
 * collections below. Each change is written to /permissions at once.
 */
export function PermissionMatrix({ role, appAccess }: { role: MatrixRole; appAccess: boolean }) {
  const { translate } = useTranslation();
  const { open } = useNotification();
  const schema = useSchema();
  const matrix = useRolePermissions(role);
  const [custom, setCustom] = useState<{ collection: string; action: PermissionAction } | null>(null);
  const withTable = schema.collections.filter((collection) => collection.schema);
  const user = useMemo(() => withTable.filter((collection) => !collection.collection.startsWith('tessera_')), [withTable]);
  const system = useMemo(() => withTable.filter((collection) => collection.collection.startsWith('tessera_')), [withTable]);
  const guarded = {
    ...matrix,
    apply: async (targets: CellTarget[]) => {
      try {
        await matrix.apply(targets);
      } catch (failure) {
        open?.({ type: 'error', message: translate('roles.matrix.saveFailed'), description: (failure as Error).message });
      }
    },
  };

  return (
    <>
      <Space size={16} wrap style={{ marginBottom: 12 }}>
        <Space size={4}><CheckCircleFilled style={{ color: '#52c41a' }} />{translate('roles.matrix.state.all')}</Space>
        <Space size={4}><MinusCircleFilled style={{ color: '#faad14' }} />{translate('roles.matrix.state.custom')}</Space>
        <Space size={4}><CloseCircleOutlined />{translate('roles.matrix.state.none')}</Space>
        {appAccess ? <Space size={4}><SafetyCertificateOutlined style={{ color: '#1677ff' }} />{translate('roles.matrix.state.default')}</Space> : null}
      </Space>
      <MatrixTable collections={user} matrix={guarded} appAccess={appAccess} onCustom={setCustom} />
      <Collapse
        ghost
        style={{ marginTop: 16 }}
        items={[{ key: 'system', label: translate('roles.matrix.system'), children: <MatrixTable collections={system} matrix={guarded} appAccess={appAccess} onCustom={setCustom} /> }]}
      />
      <PermissionDrawer
        target={custom}
        row={custom ? matrix.index.get(cellKey(custom.collection, custom.action)) : undefined}
        onClose={() => setCustom(null)}
        onSave={async (setting) => {
          if (!custom) return;
          await matrix.apply([{ ...custom, setting }]);
          setCustom(null);
        }}
      />
    </>
  );
}
