import { useTranslate } from '@refinedev/core';
import { Button, Flex, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { assetUrl } from '../../app/project-settings.tsx';
import { FileBrowser } from '../../files/file-browser.tsx';
import { useFormat } from '../../app/use-format.ts';
import { FILE_FIELDS, fileName, type FileItem } from '../../files/file-info.ts';
import { FileThumbnail } from '../../files/file-thumbnail.tsx';
import { apiData } from '../../providers/http-client.ts';
import type { InterfaceProps } from './types.ts';

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
 * file or upload a new one (`POST /files`), and a way to clear the field.
 */
export function FileInterface({ field, value, onChange, disabled }: InterfaceProps<FileItem | string>) {
  const translate = useTranslate();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const file = useFile(value);
  const image = field.meta?.interface === 'file-image';
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
          {file && (
            <Button danger type="text" onClick={() => onChange?.(null)} data-testid="file-clear">
              {translate('content.files.clear')}
            </Button>
          )}
        </Space>
      )}
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} title={translate('content.files.library')} width={800} destroyOnHidden>
        <FileBrowser
          pageSize={12}
          onPick={(picked) => {
            setOpen(false);
            onChange?.(picked);
          }}
        />
      </Modal>
    </div>
  );
}
