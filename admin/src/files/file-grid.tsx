import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Card, Flex, List, Popconfirm, Typography } from 'antd';
import type { DragEvent, ReactNode } from 'react';
import { useFormat } from '../app/use-format.ts';
import { fileName, type FileItem } from './file-info.ts';
import { FileThumbnail } from './file-thumbnail.tsx';
import { FILE_DRAG_TYPE } from './folder-tree.tsx';
import { EDITABLE_TYPES } from './image-editor.tsx';

/** What a list of files can do with one of them; each is absent when the caller may not. */
export interface FileActions {
  /** Opens (the library: the file page) or picks (a picker) the file. */
  open(file: FileItem): void;
  edit?: (file: FileItem) => void;
  remove?: (file: FileItem) => void;
  /** Whether files may be dragged onto folders. */
  draggable?: boolean;
}

/** Starts dragging a file onto a folder of the tree. */
export function startFileDrag(event: DragEvent, file: FileItem): void {
  event.dataTransfer.setData(FILE_DRAG_TYPE, file.id);
  event.dataTransfer.effectAllowed = 'move';
}

/** Size and dimensions, as the cards and the table show them. */
export function useFileFacts(): (file: FileItem) => string {
  const format = useFormat();
  return (file) => [file.width && file.height ? `${file.width}×${file.height}` : null, format.bytes(file.filesize)].filter(Boolean).join(' · ');
}

/** Files as a grid of thumbnail cards. */
export function FileGrid({ files, loading, empty, pagination, actions, wide }: { files: FileItem[]; loading: boolean; empty: ReactNode; pagination: false | object; actions: FileActions; wide: boolean }) {
  const translate = useTranslate();
  const facts = useFileFacts();
  return (
    <List<FileItem>
      grid={{ gutter: 12, xs: 2, sm: 3, md: 4, lg: wide ? 5 : 4, xl: wide ? 6 : 4, xxl: wide ? 8 : 4 }}
      dataSource={files}
      loading={loading}
      locale={{ emptyText: empty }}
      pagination={pagination}
      renderItem={(file) => (
        <List.Item>
          <Card
            hoverable
            size="small"
            onClick={() => actions.open(file)}
            draggable={actions.draggable}
            onDragStart={actions.draggable ? (event) => startFileDrag(event, file) : undefined}
            styles={{ body: { padding: 8 } }}
            data-testid={`file-card-${file.filename_download ?? file.id}`}
            cover={
              <div style={{ padding: 8, paddingBottom: 0, aspectRatio: '1 / 1' }} role="button" aria-label={fileName(file)}>
                <div style={{ width: '100%', height: '100%' }}>
                  <FileThumbnail file={file} size={160} fill />
                </div>
              </div>
            }
          >
            <Flex align="center" gap={4}>
              <div style={{ minWidth: 0, flex: 1 }}>
                <Typography.Text ellipsis={{ tooltip: fileName(file) }} style={{ display: 'block' }}>
                  {fileName(file)}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                  {facts(file) || '\u00a0'}
                </Typography.Text>
              </div>
              {actions.edit && EDITABLE_TYPES.includes(file.type ?? '') && (
                <Button type="text" size="small" icon={<EditOutlined />} onClick={(event) => { event.stopPropagation(); actions.edit!(file); }} aria-label={translate('content.files.edit')} data-testid="file-edit-image" />
              )}
              {actions.remove && (
                <span onClick={(event) => event.stopPropagation()}>
                  <Popconfirm title={translate('content.files.confirmDelete')} okButtonProps={{ danger: true }} onConfirm={() => actions.remove!(file)}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('buttons.delete')} data-testid="file-delete" />
                  </Popconfirm>
                </span>
              )}
            </Flex>
          </Card>
        </List.Item>
      )}
    />
  );
}
