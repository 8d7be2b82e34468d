import { useTranslate } from '@refinedev/core';
import { Button, Flex, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { assetUrl } from '../../app/project-settings.tsx';
import { FileBrowser } from '../../files/file-browser.tsx';
import { useFormat } from '../../app/use-format.ts';
import { FILE_FIELDS, fileName, type FileItem } from '../../files/file-info.ts';
import { FileThumbnail } from '../../files/file-thumbnail.tsx';
import { EDITABLE_TYPES, ImageEditor } from '../../files/image-editor.tsx';
import { apiData } from '../../providers/http-client.ts';
import { stringOption, type InterfaceProps } from './types.ts';

/** The file a value names, read in full when the form only has its key or its label fields. */
function useFile(value: FileItem | string | null | undefined): FileItem | null {
  const [file, setFile] = useState<FileItem | null>(null);
  const id = value && typeof value === 'object' ? value.id : (value ?? null);
  const complete = value && typeof value === 'object' && 'type' in value ? value : null;
  useEffect(() => {
    if (complete) return setFile(complete);
    if (!id) return setFile(null);
    let current = true;
    void apiData<FileItem>(`/files/${encodeURIComponent(id)}`, { query: { fields: FILE_FIELDS } }).then(
      (found) => current && setFile(found),
      () => current && setFile({ id, title: id, filename_download: null, type: null }),
    );
    return () => {
      current = false;
    };
  }, [id, complete]);
  return file;
}

/**
 * File and image fields (m2o to files): the chosen file with its thumbnail, a library to pick an existing
 * file or upload a new one (`POST /files`, into the `folder` option's folder, which the library opens on), and a way to clear the field. An image field (`file-image`)
 * shows a larger preview and, unless `crop` is false, *Edit image*: the file library's image editor,
 * which crops, turns and mirrors the file in place (same id, so the field keeps its value).
 */
export function FileInterface({ field, value, onChange, disabled, options }: InterfaceProps<FileItem | string>) {
  const translate = useTranslate();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState<FileItem | null>(null);
  const read = useFile(value);
  // After an edit the same file has new content (and a new modified_on, which the thumbnail's URL carries).
  const file = read && edited?.id === read.id ? { ...read, ...edited } : read;
  const image = field.meta?.interface === 'file-image';
  const editable = image && options.crop !== false && !disabled && Boolean(file?.type && EDITABLE_TYPES.includes(file.type));
  return (
    <div id={`field-${field.field}`} data-testid={`file-field-${field.field}`}>
      {file ? (
        <Flex align="center" gap={12} style={{ marginBottom: disabled ? 0 : 8 }} data-testid="file-chosen">
          <FileThumbnail file={file} size={image ? 120 : 48} />
          <div style={{ minWidth: 0 }}>
            <a href={assetUrl(file.id, {}, file.modified_on)} target="_blank" rel="noreferrer">
              <Typography.Text ellipsis style={{ maxWidth: 360, color: 'inherit' }}>
                {fileName(file)}
              </Typography.Text>
            </a>
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {[file.type, file.width && file.height ? `${file.width}×${file.height}` : null, format.bytes(file.filesize)].filter(Boolean).join(' · ')}
            </Typography.Text>
          </div>
        </Flex>
      ) : (
        disabled && <Typography.Text type="secondary">{translate('content.files.empty')}</Typography.Text>
      )}
      {!disabled && (
        <Space>
          <Button onClick={() => setOpen(true)} data-testid="file-choose">
            {file ? translate('content.files.replace') : image ? translate('content.files.chooseImage') : translate('content.files.choose')}
          </Button>
          {editable && (
            <Button onClick={() => setEditing(true)} data-testid="file-edit-image">
              {translate('content.files.editImage')}
            </Button>
          )}
          {file && (
            <Button danger type="text" onClick={() => onChange?.(null)} data-testid="file-clear">
              {translate('content.files.clear')}
            </Button>
          )}
        </Space>
      )}
      {editable && file && (
        <ImageEditor
          file={file}
          open={editing}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            setEdited(saved);
          }}
        />
      )}
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} title={translate('content.files.library')} width={800} destroyOnHidden>
        <FileBrowser
          pageSize={12}
          folder={stringOption(options, 'folder') ?? null}
          onPick={(picked) => {
            setOpen(false);
            onChange?.(picked);
          }}
        />
      </Modal>
    </div>
  );
}
