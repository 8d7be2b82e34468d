import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useInvalidate, useTranslate } from '@refinedev/core';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { BulkEditDrawer } from './bulk-edit-drawer.tsx';
import { batchBody, type BulkSelection } from './bulk-selection.ts';

/**
 * Above the list while items are selected: how many, "select all N matching" once the whole page is
 * picked and more items match, and the batch actions the caller may use (edit, delete), each one request.
 */
export function BulkToolbar({ collection, selection, pageKeys, total, canUpdate, canDelete }: { collection: string; selection: BulkSelection; pageKeys: Array<string | number>; total: number; canUpdate: boolean; canDelete: boolean }) {
  const translate = useTranslate();
  const { message, notification } = App.useApp();
  const invalidate = useInvalidate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const count = selection.count(total);
  if (count === 0) return null;
  const wholePage = pageKeys.length > 0 && pageKeys.every((key) => selection.keys.includes(key));

  const remove = async () => {
    setDeleting(true);
    try {
      await apiRequest(`/items/${encodeURIComponent(collection)}`, { method: 'DELETE', body: batchBody(selection.target) });
      message.success(translate('content.list.deleted', { count }));
      selection.clear();
      await invalidate({ resource: collection, invalidates: ['list', 'many'] });
    } catch (error) {
      notification.error({ message: translate('notifications.deleteError', { resource: collection }), description: (error as ApiHttpError).message });
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Space wrap style={{ marginBottom: 12 }} data-testid="bulk-toolbar">
      <Typography.Text data-testid="bulk-count">{selection.allMatching ? translate('content.list.allMatchingSelected', { count }) : translate('content.list.selected', { count })}</Typography.Text>
      {!selection.allMatching && wholePage && total > count && (
        <Button type="link" onClick={selection.selectAllMatching} data-testid="select-all-matching">
          {translate('content.list.selectAllMatching', { count: total })}
        </Button>
      )}
      <Button type="link" onClick={selection.clear} data-testid="clear-selection">
        {translate('content.list.clearSelection')}
      </Button>
      {canUpdate && (
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="bulk-edit">
          {translate('content.bulk.edit')}
        </Button>
      )}
      {canDelete && (
        <Popconfirm title={translate('content.list.confirmBulkDelete', { count })} okButtonProps={{ danger: true, 'data-testid': 'bulk-delete-confirm' } as never} onConfirm={() => void remove()}>
          <Button danger icon={<DeleteOutlined />} loading={deleting} data-testid="bulk-delete">
            {translate('content.list.deleteSelected')}
          </Button>
        </Popconfirm>
      )}
      {canUpdate && <BulkEditDrawer collection={collection} target={selection.target} count={count} open={editing} onClose={() => setEditing(false)} onDone={selection.clear} />}
    </Space>
  );
}
