import { AppstoreOutlined, FolderAddOutlined, TableOutlined, UploadOutlined } from '@ant-design/icons';
import { useCan, useTranslate } from '@refinedev/core';
import { App, Button, Card, Col, Empty, Flex, Input, Modal, Row, Segmented, Select, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiData, apiRequest, type ApiHttpError } from '../providers/http-client.ts';
import { FILE_FIELDS, fileName, folderOptions, type FileItem, type FolderItem } from './file-info.ts';
import { FileGrid, type FileActions } from './file-grid.tsx';
import { FileTable } from './file-table.tsx';
import { FolderTree, mayMoveFolder } from './folder-tree.tsx';
import { ImageEditor } from './image-editor.tsx';
import { uploadFiles } from './upload.ts';
import { UploadDropZone, UploadProgressList, useUploads } from './upload-drop-zone.tsx';

const PAGE_SIZE = 24;
const LAYOUT_KEY = 'tessera.files.layout';

/** The folders the caller may read (none when they may not: the folder filter is then left out). */
export function useFolders() {
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
 * The file library. With `onPick` (a picker in a modal): thumbnails with search, a folder filter and upload,
 * a click picks a file and an upload picks what was uploaded. Without it (the Files screen): the folders
 * as a tree beside the files, grid or table layout, files dragged onto a folder move there, files dropped
 * from the desktop upload into the folder shown with a progress line each, a click opens the file's page.
 */
export function FileBrowser({ onPick, pageSize = PAGE_SIZE, folder: startFolder = null }: { onPick?: (file: FileItem) => void; pageSize?: number; /** The folder shown first (uploads go there). */ folder?: string | null }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [files, setFiles] = useState<FileItem[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState<string | null>(startFolder);
  const [page, setPage] = useState(1);
  const [picking, setPicking] = useState(0);
  const [folderModal, setFolderModal] = useState(false);
  const [layout, setLayout] = useState<'grid' | 'table'>(() => (localStorage.getItem(LAYOUT_KEY) === 'table' ? 'table' : 'grid'));
  const { folders, reload: reloadFolders } = useFolders();
  const { data: canUpload } = useCan({ resource: 'files', action: 'create' });
  const { data: canDelete } = useCan({ resource: 'files', action: 'delete' });
  const { data: canUpdate } = useCan({ resource: 'files', action: 'edit' });
  const { data: canCreateFolder } = useCan({ resource: 'folders', action: 'create' });
  const { data: canMoveFolders } = useCan({ resource: 'folders', action: 'edit' });
  const [editing, setEditing] = useState<FileItem | null>(null);
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
  const { uploads, upload } = useUploads(folder, useCallback(() => void load(), [load]));

  const remove = async (file: FileItem) => {
    try {
      await apiRequest(`/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
      message.success(translate('content.files.deleted', { name: fileName(file) }));
      await load();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };
  const move = async (id: string, target: string | null) => {
    const file = files.find((entry) => entry.id === id);
    if (!file || (file.folder ?? null) === target) return;
    try {
      await apiRequest(`/files/${encodeURIComponent(id)}`, { method: 'PATCH', body: { folder: target } });
      const name = target ? (folders?.find((entry) => entry.id === target)?.name ?? '') : translate('files.allFiles');
      message.success(translate('files.moved', { name: fileName(file), folder: name }));
      await load();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };
  const moveFolder = async (id: string, parent: string | null) => {
    const moving = folders?.find((entry) => entry.id === id);
    if (!moving || !folders || (moving.parent ?? null) === parent) return;
    // The server refuses a loop too (400 naming `parent`); saying so here names the folders, in the user's language.
    if (!mayMoveFolder(folders, id, parent)) return void message.error(translate('files.folderLoop', { name: moving.name }));
    try {
      await apiRequest(`/folders/${encodeURIComponent(id)}`, { method: 'PATCH', body: { parent } });
      const name = parent ? (folders.find((entry) => entry.id === parent)?.name ?? '') : translate('files.allFiles');
      message.success(translate('files.moved', { name: moving.name, folder: name }));
      await reloadFolders();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };
  const showFolder = (value: string | null) => {
    setPage(1);
    setFolder(value);
  };

  const actions: FileActions = managing
    ? { open: (file) => navigate(`/files/${encodeURIComponent(file.id)}`), edit: canUpdate?.can ? setEditing : undefined, remove: canDelete?.can ? remove : undefined, draggable: Boolean(canUpdate?.can && folders) }
    : { open: (file) => onPick!(file) };
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={search || folder ? translate('content.files.noMatch') : translate('content.files.none')} />;
  const pagination = total > pageSize ? { current: page, pageSize, total, onChange: setPage, showSizeChanger: false, size: 'small' } : false;

  const toolbar = (
    <Flex gap={8} wrap style={{ marginBottom: 16 }}>
      <Input.Search allowClear placeholder={translate('content.files.search')} onSearch={(term) => { setPage(1); setSearch(term); }} style={{ width: 240, maxWidth: '100%' }} data-testid="file-search" />
      {!managing && folders && (
        <Select allowClear value={folder ?? undefined} placeholder={translate('content.files.allFolders')} options={folderOptions(folders)} onChange={(value: string | undefined) => showFolder(value ?? null)} style={{ width: 220 }} notFoundContent={translate('content.files.noFolders')} data-testid="file-folder" />
      )}
      {managing && (
        <Segmented
          value={layout}
          onChange={(value) => { setLayout(value as 'grid' | 'table'); localStorage.setItem(LAYOUT_KEY, String(value)); }}
          options={[
            { value: 'grid', title: translate('files.layout.grid'), label: <AppstoreOutlined aria-label={translate('files.layout.grid')} data-testid="files-layout-grid" /> },
            { value: 'table', title: translate('files.layout.table'), label: <TableOutlined aria-label={translate('files.layout.table')} data-testid="files-layout-table" /> },
          ]}
          data-testid="files-layout"
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
            if (managing) return void upload([file as File]).then(() => onSuccess?.(null));
            setPicking((count) => count + 1);
            try {
              const [uploaded] = await uploadFiles([file as File], { folder });
              onSuccess?.(uploaded);
              if (uploaded) onPick!(uploaded);
              await load();
            } catch (failure) {
              const error = failure as ApiHttpError;
              message.error(error.message || translate('content.files.uploadFailed'));
              onError?.(new Error(error.message));
            } finally {
              setPicking((count) => count - 1);
            }
          }}
        >
          <Button type={managing ? 'primary' : 'default'} icon={<UploadOutlined />} loading={picking > 0} data-testid="file-upload">
            {translate('content.files.upload')}
          </Button>
        </Upload>
      )}
    </Flex>
  );

  const content =
    managing && layout === 'table' ? (
      <FileTable files={files} loading={loading} empty={empty} pagination={pagination} actions={actions} />
    ) : (
      <FileGrid files={files} loading={loading} empty={empty} pagination={pagination} actions={actions} wide={managing && !folders} />
    );

  return (
    <div data-testid="file-browser">
      {!managing ? (
        <>
          {toolbar}
          {content}
        </>
      ) : (
        <Row gutter={[16, 16]}>
          {folders && (
            <Col xs={24} md={7} xl={6}>
              <Card size="small" title={translate('files.folders')} styles={{ body: { padding: 8 } }}>
                <FolderTree
                  folders={folders}
                  selected={folder}
                  onSelect={showFolder}
                  onDropFile={canUpdate?.can ? (id, target) => void move(id, target) : undefined}
                  onMoveFolder={canMoveFolders?.can ? (id, parent) => void moveFolder(id, parent) : undefined}
                />
              </Card>
            </Col>
          )}
          <Col xs={24} md={folders ? 17 : 24} xl={folders ? 18 : 24}>
            {toolbar}
            <UploadProgressList uploads={uploads} />
            <UploadDropZone onFiles={(dropped) => void upload(dropped)} disabled={!canUpload?.can}>
              {content}
              {canUpload?.can && <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'center', marginTop: 12, fontSize: 12 }}>{translate('files.dropHint')}</Typography.Text>}
            </UploadDropZone>
          </Col>
        </Row>
      )}
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
          showFolder(created.id);
        }}
      />
    </div>
  );
}
