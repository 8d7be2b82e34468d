import { FileOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Card, Input, List, Modal, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { assetUrl } from '../../app/project-settings.tsx';
import { apiData, type ApiHttpError } from '../../providers/http-client.ts';
import type { InterfaceProps } from './types.ts';

type FileItem = { id: string; title: string | null; filename_download: string | null; type: string | null };

const FILE_FIELDS = 'id,title,filename_download,type';

function isImage(file: FileItem | null): boolean {
  return Boolean(file?.type?.startsWith('image/'));
}

/** A thumbnail for images, an icon for other files. */
function Preview({ file, size = 48 }: { file: FileItem; size?: number }) {
  if (isImage(file)) return <img src={assetUrl(file.id, { width: size * 2, height: size * 2, fit: 'cover' })} alt="" width={size} height={size} style={{ objectFit: 'cover', borderRadius: 6 }} />;
  return <FileOutlined style={{ fontSize: size / 2, width: size, textAlign: 'center' }} />;
}

/** The library of files (`GET /files`) with search and upload (`POST /files`); picks one. */
function FileLibrary({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (file: FileItem) => void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const [files, setFiles] = useState<FileItem[]>([]);
  const [search, setSearch] = useState('');
  const load = (term = search) =>
    apiData<FileItem[]>('/files', { query: { fields: FILE_FIELDS, search: term || undefined, sort: '-uploaded_on', limit: 50 } })
      .then((found) => setFiles(found ?? []))
      .catch((error: ApiHttpError) => message.error(error.message));
  useEffect(() => {
    if (open) void load();
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={translate('content.files.library')} width={720}>
      <Space style={{ width: '100%', marginBottom: 12 }}>
        <Input.Search allowClear placeholder={translate('content.list.search')} onSearch={(term) => { setSearch(term); void load(term); }} />
        <Upload
          name="file"
          action="/files"
          withCredentials
          showUploadList={false}
          onChange={({ file }) => {
            if (file.status === 'done') {
              const uploaded = (file.response as { data?: FileItem })?.data;
              if (uploaded) onPick(uploaded);
            } else if (file.status === 'error') {
              message.error((file.response as { errors?: { message: string }[] })?.errors?.[0]?.message ?? translate('content.files.uploadFailed'));
            }
          }}
        >
          <Button icon={<UploadOutlined />}>{translate('content.files.upload')}</Button>
        </Upload>
      </Space>
      <List
        grid={{ gutter: 12, column: 4 }}
        dataSource={files}
        locale={{ emptyText: translate('content.files.none') }}
        renderItem={(file) => (
          <List.Item>
            <Card hoverable size="small" onClick={() => onPick(file)} styles={{ body: { padding: 8, textAlign: 'center' } }}>
              <Preview file={file} size={96} />
              <Typography.Text ellipsis style={{ display: 'block', marginTop: 6 }}>
                {file.title ?? file.filename_download}
              </Typography.Text>
            </Card>
          </List.Item>
        )}
      />
    </Modal>
  );
}

/** File and image fields (m2o to files): the chosen file with a preview, choose from the library or upload. */
export function FileInterface({ field, value, onChange, disabled }: InterfaceProps<FileItem | string>) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<FileItem | null>(null);
  const id = value && typeof value === 'object' ? value.id : (value ?? null);
  useEffect(() => {
    if (value && typeof value === 'object') return setFile(value);
    if (!id) return setFile(null);
    void apiData<FileItem>(`/files/${encodeURIComponent(id)}`, { query: { fields: FILE_FIELDS } }).then(setFile, () => setFile({ id, title: id, filename_download: null, type: null }));
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div id={`field-${field.field}`}>
      {file && (
        <Space style={{ marginBottom: 8 }}>
          <Preview file={file} size={field.meta?.interface === 'file-image' ? 96 : 40} />
          <a href={assetUrl(file.id)} target="_blank" rel="noreferrer">
            {file.title ?? file.filename_download ?? file.id}
          </a>
        </Space>
      )}
      {!disabled && (
        <Space style={{ display: 'flex' }}>
          <Button onClick={() => setOpen(true)}>{file ? translate('content.files.replace') : translate('content.files.choose')}</Button>
          {file && <Button danger type="text" onClick={() => onChange?.(null)}>{translate('content.relation.remove')}</Button>}
        </Space>
      )}
      <FileLibrary
        open={open}
        onClose={() => setOpen(false)}
        onPick={(picked) => {
          setOpen(false);
          onChange?.(picked);
        }}
      />
    </div>
  );
}
