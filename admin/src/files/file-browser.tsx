import { DeleteOutlined, EditOutlined, FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { useCan, useTranslate } from '@refinedev/core';
import { App, Button, Card, Empty, Flex, Input, List, Modal, Popconfirm, Select, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiData, apiRequest, type ApiHttpError } from '../providers/http-client.ts';
import { useFormat } from '../app/use-format.ts';
import { FILE_FIELDS, fileName, folderOptions, type FileItem, type FolderItem } from './file-info.ts';
import { FileThumbnail } from './file-thumbnail.tsx';
import { EDITABLE_TYPES, ImageEditor } from './image-editor.tsx';
import { uploadFiles } from './upload.ts';

const PAGE_SIZE = 24;

/** The folders the caller may read (none when they may not: the folder filter is then left out). */
function useFolders() {
  const [folders, setFolders] = useState<FolderItem[] | null>(null);
  const reload = useCallback(() => apiData<FolderItem[]>('/folders', { query: { fields: ['id', 'name', 'parent'], limit: -1, sort: 'name' } }).then((rows) => setFolders(rows ?? []), () => setFolders(null)), []);
  useEffect(() => void reload(), [reload]);
  return { folders, reload };
}

/** A modal asking a new folder's name; creates it inside `parent`. */
function NewFolderModal({ open, parent, onClose, onCreated }: { open: boolean; parent: string | null; onClose: () => void; onCreated: (folder: FolderItem) => void }) {
  const translate = useTranslate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (!name.trim()) return setError(translate('content.files.folderNameRequired'));
    setBusy(true);
    try {
      const folder = await apiData<FolderItem>('/folders', { method: 'POST', body: { name: name.trim(), parent } });
      setName('');
      setError(null);
      onCreated(folder);
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={translate('content.files.newFolder')} onCancel={onClose} onOk={create} okText={translate('buttons.create')} confirmLoading={busy} destroyOnHidden>
      <Input autoFocus value={name} status={error ? 'error' : undefined} placeholder={translate('content.files.folderName')} onChange={(event) => setName(event.target.value)} onPressEnter={create} data-testid="folder-name" />
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Modal>
  );
}

/**
 * The file library: files newest first as thumbnails, with search, a folder filter, upload (into the
 * chosen folder) and, when `onPick` is not given, delete and new folders. With `onPick` a click picks a
 * file, and an upload picks what was uploaded.
 */
export function FileBrowser({ onPick, pageSize = PAGE_SIZE }: { onPick?: (file: FileItem) => void; pageSize?: number }) {
  const translate = useTranslate();
  const format = useFormat();
  const { message } = App.useApp();
  const [files, setFiles] = useState<FileItem[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(0);
  const [folderModal, setFolderModal] = useState(false);
  const { folders, reload: reloadFolders } = useFolders();
  const { data: canUpload } = useCan({ resource: 'files', action: 'create' });
  const { data: canDelete } = useCan({ resource: 'files', action: 'delete' });
  const { data: canUpdate } = useCan({ resource: 'files', action: 'edit' });
  const [editing, setEditing] = useState<FileItem | null>(null);
  const { data: canCreateFolder } = useCan({ resource: 'folders', action: 'create' });
  const managing = !onPick;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const body = await apiRequest<{ data: FileItem[]; meta?: { filter_count?: number } }>('/files', {
        query: { fields: FILE_FIELDS, search: search || undefined, filter: folder ? { folder: { _eq: folder } } : undefined, sort: '-uploaded_on', limit: pageSize, page, meta: 'filter_count' },
      });
      setFiles(body?.data ?? []);
      setTotal(Number(body?.meta?.filter_count ?? body?.data?.length ?? 0));
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    } finally {
      setLoading(false);
    }
  }, [search, folder, page, pageSize, message]);
  useEffect(() => void load(), [load]);

  const remove = async (file: FileItem) => {
    try {
      await apiRequest(`/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
      message.success(translate('content.files.deleted', { name: fileName(file) }));
      await load();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };

  return (
    <div data-testid="file-browser">
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={translate('content.files.search')} onSearch={(term) => { setPage(1); setSearch(term); }} style={{ width: 240 }} data-testid="file-search" />
        {folders && (
          <Select
            allowClear
            value={folder ?? undefined}
            placeholder={translate('content.files.allFolders')}
            options={folderOptions(folders)}
            onChange={(value: string | undefined) => { setPage(1); setFolder(value ?? null); }}
            style={{ width: 220 }}
            notFoundContent={translate('content.files.noFolders')}
            data-testid="file-folder"
          />
        )}
        {managing && folders && canCreateFolder?.can && (
          <Button icon={<FolderAddOutlined />} onClick={() => setFolderModal(true)} data-testid="new-folder">
            {translate('content.files.newFolder')}
          </Button>
        )}
        {canUpload?.can && (
          <Upload
            multiple
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              setUploading((count) => count + 1);
              try {
                const [uploaded] = await uploadFiles([file as File], { folder });
                onSuccess?.(uploaded);
                if (onPick && uploaded) onPick(uploaded);
                else message.success(translate('content.files.uploaded', { name: uploaded ? fileName(uploaded) : (file as File).name }));
                await load();
              } catch (failure) {
                const error = failure as ApiHttpError;
                message.error(error.message || translate('content.files.uploadFailed'));
                onError?.(new Error(error.message));
              } finally {
                setUploading((count) => count - 1);
              }
            }}
          >
            <Button type={managing ? 'primary' : 'default'} icon={<UploadOutlined />} loading={uploading > 0} data-testid="file-upload">
              {translate('content.files.upload')}
            </Button>
          </Upload>
        )}
      </Flex>
      <List<FileItem>
        grid={{ gutter: 12, xs: 2, sm: 3, md: 4, lg: managing ? 6 : 4, xl: managing ? 6 : 4, xxl: managing ? 8 : 4 }}
        dataSource={files}
        loading={loading}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={search || folder ? translate('content.files.noMatch') : translate('content.files.none')} /> }}
        pagination={total > pageSize ? { current: page, pageSize, total, onChange: setPage, showSizeChanger: false, size: 'small' } : false}
        renderItem={(file) => (
          <List.Item>
            <Card
              hoverable={Boolean(onPick)}
              size="small"
              onClick={onPick ? () => onPick(file) : undefined}
              styles={{ body: { padding: 8 } }}
              data-testid={`file-card-${file.filename_download ?? file.id}`}
              cover={
                <div style={{ padding: 8, paddingBottom: 0 }}>
                  <a href={`/assets/${encodeURIComponent(file.id)}`} target="_blank" rel="noreferrer" onClick={(event) => onPick && event.preventDefault()} aria-label={fileName(file)} style={{ display: 'block', aspectRatio: '1 / 1' }}>
                    <FileThumbnailFill file={file} />
                  </a>
                </div>
              }
            >
              <Flex align="center" gap={4}>
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Typography.Text ellipsis={{ tooltip: fileName(file) }} style={{ display: 'block' }}>
                    {fileName(file)}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                    {[file.width && file.height ? `${file.width}×${file.height}` : null, format.bytes(file.filesize)].filter(Boolean).join(' · ') || '\u00a0'}
                  </Typography.Text>
                </div>
                {managing && canUpdate?.can && EDITABLE_TYPES.includes(file.type ?? '') && (
                  <Button type="text" size="small" icon={<EditOutlined />} onClick={() => setEditing(file)} aria-label={translate('content.files.edit')} data-testid="file-edit-image" />
                )}
                {managing && canDelete?.can && (
                  <Popconfirm title={translate('content.files.confirmDelete')} okButtonProps={{ danger: true }} onConfirm={() => remove(file)}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('buttons.delete')} data-testid="file-delete" />
                  </Popconfirm>
                )}
              </Flex>
            </Card>
          </List.Item>
        )}
      />
      {editing && (
        <ImageEditor
          file={editing}
          open
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await load();
          }}
        />
      )}
      <NewFolderModal
        open={folderModal}
        parent={folder}
        onClose={() => setFolderModal(false)}
        onCreated={async (created) => {
          setFolderModal(false);
          await reloadFolders();
          setPage(1);
          setFolder(created.id);
        }}
      />
    </div>
  );
}

/** A thumbnail that fills its square box (the grid's cards). */
function FileThumbnailFill({ file }: { file: FileItem }) {
  return (
    <div style={{ width: '100%', height: '100%' }}>
      <FileThumbnail file={file} size={160} fill />
    </div>
  );
}
