import { DeleteOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Flex, Popconfirm, Table, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useFormat } from '../app/use-format.ts';
import { fileName, type FileItem } from './file-info.ts';
import { FileThumbnail } from './file-thumbnail.tsx';
import { startFileDrag, type FileActions } from './file-grid.tsx';

/** Files as a table: thumbnail and name, type, size, dimensions, upload date. A row opens its file. */
export function FileTable({ files, loading, empty, pagination, actions }: { files: FileItem[]; loading: boolean; empty: ReactNode; pagination: false | object; actions: FileActions }) {
  const translate = useTranslate();
  const format = useFormat();
  return (
    <Table<FileItem>
      rowKey="id"
      size="small"
      dataSource={files}
      loading={loading}
      locale={{ emptyText: empty }}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      onRow={(file) => ({
        onClick: () => actions.open(file),
        draggable: actions.draggable,
        onDragStart: actions.draggable ? (event) => startFileDrag(event, file) : undefined,
        style: { cursor: 'pointer' },
        'data-testid': `file-row-${file.filename_download ?? file.id}`,
      }) as React.HTMLAttributes<HTMLTableRowElement>}
      columns={[
        {
          key: 'name',
          title: translate('files.columns.name'),
          render: (_, file) => (
            <Flex align="center" gap={8}>
              <FileThumbnail file={file} size={32} />
              <Typography.Text ellipsis style={{ maxWidth: 280 }}>{fileName(file)}</Typography.Text>
            </Flex>
          ),
        },
        { key: 'type', title: translate('files.columns.type'), dataIndex: 'type', responsive: ['md'] },
        { key: 'size', title: translate('files.columns.size'), render: (_, file) => format.bytes(file.filesize) },
        { key: 'dimensions', title: translate('files.columns.dimensions'), responsive: ['lg'], render: (_, file) => (file.width && file.height ? `${file.width}×${file.height}` : '—') },
        { key: 'uploaded', title: translate('files.columns.uploaded'), responsive: ['md'], render: (_, file) => format.date(file.uploaded_on) },
        ...(actions.remove
          ? [{
              key: 'actions',
              title: '',
              width: 48,
              render: (_: unknown, file: FileItem) => (
                <span onClick={(event) => event.stopPropagation()}>
                  <Popconfirm title={translate('content.files.confirmDelete')} okButtonProps={{ danger: true }} onConfirm={() => actions.remove!(file)}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('buttons.delete')} data-testid="file-delete" />
                  </Popconfirm>
                </span>
              ),
            }]
          : []),
      ]}
    />
  );
}
