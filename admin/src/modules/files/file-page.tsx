import { ArrowLeftOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, SaveOutlined, SwapOutlined } from '@ant-design/icons';
import { useCan, useTranslate } from '@refinedev/core';
import { App, Button, Card, Col, Descriptions, Flex, Form, Input, Popconfirm, Progress, Result, Row, Select, Space, Spin, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { assetUrl } from '../../app/project-settings.tsx';
import { useFormat } from '../../app/use-format.ts';
import { useFolders } from '../../files/file-browser.tsx';
import { FILE_DETAIL_FIELDS, fileName, folderOptions, isImage, type FileItem } from '../../files/file-info.ts';
import { FileThumbnail } from '../../files/file-thumbnail.tsx';
import { FileUsageList } from '../../files/file-usage-list.tsx';
import { FocalPointPicker, type FocalPoint } from '../../files/focal-point-picker.tsx';
import { EDITABLE_TYPES, ImageEditor } from '../../files/image-editor.tsx';
import { replaceFile } from '../../files/upload.ts';
import { apiData, apiRequest, type ApiHttpError } from '../../providers/http-client.ts';

/** The metadata the form edits (Directus's file fields). */
interface FileForm {
  title: string | null;
  description: string | null;
  tags: string[];
  location: string | null;
  folder: string | null;
  filename_download: string | null;
}

function formValues(file: FileItem): FileForm {
  return { title: file.title, description: file.description ?? null, tags: file.tags ?? [], location: file.location ?? null, folder: file.folder ?? null, filename_download: file.filename_download };
}

function uploader(file: FileItem): string | null {
  const user = file.uploaded_by;
  if (!user || typeof user !== 'object') return null;
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email || null;
}

/**
 * `/files/:id`: a file's page. The preview (an image with its focal point, set by a click), its facts,
 * the metadata form, replacing the content under the same id (with progress), download, the image editor,
 * delete, and the items that use it.
 */
export default function FilePage() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const navigate = useNavigate();
  const format = useFormat();
  const { message } = App.useApp();
  const [form] = Form.useForm<FileForm>();
  const [file, setFile] = useState<FileItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [focal, setFocal] = useState<FocalPoint>(null);
  const [saving, setSaving] = useState(false);
  const [replacing, setReplacing] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  const { folders } = useFolders();
  const { data: canUpdate } = useCan({ resource: 'files', action: 'edit' });
  const { data: canDelete } = useCan({ resource: 'files', action: 'delete' });
  const writable = Boolean(canUpdate?.can);

  const show = useCallback((loaded: FileItem) => {
    setFile(loaded);
    setFocal(loaded.focal_point_x !== null && loaded.focal_point_x !== undefined && loaded.focal_point_y !== null && loaded.focal_point_y !== undefined ? { x: loaded.focal_point_x, y: loaded.focal_point_y } : null);
    form.setFieldsValue(formValues(loaded));
  }, [form]);
  const load = useCallback(async () => {
    try {
      show(await apiData<FileItem>(`/files/${encodeURIComponent(id)}`, { query: { fields: FILE_DETAIL_FIELDS } }));
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    }
  }, [id, show]);
  useEffect(() => void load(), [load]);

  const save = async (values: FileForm) => {
    setSaving(true);
    try {
      const body = { ...values, title: values.title || null, description: values.description || null, location: values.location || null, tags: values.tags.length > 0 ? values.tags : null, focal_point_x: focal?.x ?? null, focal_point_y: focal?.y ?? null };
      show(await apiData<FileItem>(`/files/${encodeURIComponent(id)}`, { method: 'PATCH', body, query: { fields: FILE_DETAIL_FIELDS } }));
      message.success(translate('files.page.saved'));
    } catch (failure) {
      const problem = failure as ApiHttpError;
      const named = Object.entries(problem.errors ?? {}).map(([name, errors]) => ({ name: name as keyof FileForm, errors: Array.isArray(errors) ? errors : [String(errors)] }));
      if (named.length > 0) form.setFields(named);
      else message.error(problem.message);
    } finally {
      setSaving(false);
    }
  };
  const replace = async (content: File) => {
    setReplacing(0);
    try {
      show(await replaceFile(id, content, (sent) => setReplacing(Math.min(99, Math.floor(sent * 100))), FILE_DETAIL_FIELDS));
      message.success(translate('files.page.replaced', { name: content.name }));
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    } finally {
      setReplacing(null);
    }
  };
  const remove = async () => {
    try {
      await apiRequest(`/files/${encodeURIComponent(id)}`, { method: 'DELETE' });
      message.success(translate('files.page.deleted', { name: file ? fileName(file) : id }));
      navigate('/files');
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };

  if (error) return <Result status="warning" subTitle={error} extra={<Button onClick={() => navigate('/files')}>{translate('files.page.back')}</Button>} />;
  if (!file) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  const image = isImage(file) && file.type !== 'image/svg+xml';
  const uploadedBy = uploader(file);

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Space align="center" style={{ minWidth: 0 }}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={translate('files.page.back')} onClick={() => navigate('/files')} />
          <div style={{ minWidth: 0 }}>
            <Typography.Text type="secondary">{translate('files.title')}</Typography.Text>
            <Typography.Title level={3} style={{ margin: 0, wordBreak: 'break-word' }} data-testid="file-page-title">{fileName(file)}</Typography.Title>
          </div>
        </Space>
        <Space wrap>
          <Button icon={<DownloadOutlined />} href={`${assetUrl(file.id, { download: 'true' })}`} data-testid="file-download">{translate('files.page.download')}</Button>
          {writable && EDITABLE_TYPES.includes(file.type ?? '') && <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="file-open-editor">{translate('files.page.editImage')}</Button>}
          {writable && (
            <Upload showUploadList={false} customRequest={({ file: content }) => void replace(content as File)}>
              <Button icon={<SwapOutlined />} loading={replacing !== null} data-testid="file-replace">{translate('files.page.replace')}</Button>
            </Upload>
          )}
          {canDelete?.can && (
            <Popconfirm title={translate('files.page.confirmDelete')} okButtonProps={{ danger: true }} onConfirm={remove}>
              <Button danger icon={<DeleteOutlined />} data-testid="file-page-delete">{translate('files.page.delete')}</Button>
            </Popconfirm>
          )}
        </Space>
      </Flex>
      {replacing !== null && <Progress percent={replacing} status="active" data-testid="file-replace-progress" />}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card size="small" styles={{ body: { textAlign: 'center' } }}>
            {image ? <FocalPointPicker file={file} value={focal} onChange={writable ? setFocal : undefined} /> : <FileThumbnail file={file} size={160} />}
            {image && (
              <Flex justify="center" align="center" gap={8} wrap style={{ marginTop: 8 }}>
                <Typography.Text type="secondary" data-testid="focal-point-value">
                  {focal ? translate('files.focal.at', { x: focal.x, y: focal.y }) : translate('files.focal.none')}
                </Typography.Text>
                {writable && focal && <Button size="small" onClick={() => setFocal(null)} data-testid="focal-point-clear">{translate('files.focal.clear')}</Button>}
                {writable && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{translate('files.focal.help')}</Typography.Text>}
              </Flex>
            )}
          </Card>
          <Descriptions size="small" column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }} bordered style={{ marginTop: 16 }} data-testid="file-facts">
            <Descriptions.Item label={translate('files.columns.type')}>{file.type ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={translate('files.columns.size')}>{format.bytes(file.filesize) || '—'}</Descriptions.Item>
            {file.width && file.height ? <Descriptions.Item label={translate('files.columns.dimensions')}>{`${file.width}×${file.height}`}</Descriptions.Item> : null}
            <Descriptions.Item label={translate('files.columns.uploaded')}>{format.date(file.uploaded_on)}</Descriptions.Item>
            {uploadedBy && <Descriptions.Item label={translate('files.page.uploadedBy')}>{uploadedBy}</Descriptions.Item>}
            {file.modified_on && <Descriptions.Item label={translate('files.page.modified')}>{format.date(file.modified_on)}</Descriptions.Item>}
          </Descriptions>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={translate('files.page.details')}>
            <Form form={form} layout="vertical" disabled={!writable} onFinish={save} initialValues={formValues(file)}>
              <Form.Item name="title" label={translate('files.fields.title')}><Input data-testid="file-field-title" /></Form.Item>
              <Form.Item name="description" label={translate('files.fields.description')}><Input.TextArea rows={3} data-testid="file-field-description" /></Form.Item>
              <Form.Item name="tags" label={translate('files.fields.tags')}><Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} data-testid="file-field-tags" /></Form.Item>
              <Form.Item name="location" label={translate('files.fields.location')}><Input data-testid="file-field-location" /></Form.Item>
              <Form.Item name="folder" label={translate('files.fields.folder')}>
                <Select allowClear placeholder={translate('files.allFiles')} options={folderOptions(folders ?? [])} data-testid="file-field-folder" />
              </Form.Item>
              <Form.Item name="filename_download" label={translate('files.fields.filenameDownload')}><Input data-testid="file-field-filename" /></Form.Item>
              {writable && <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} data-testid="file-save">{translate('files.page.save')}</Button>}
            </Form>
          </Card>
          <div style={{ marginTop: 16 }}>
            <FileUsageList fileId={file.id} />
          </div>
        </Col>
      </Row>
      {editing && <ImageEditor file={file} open onClose={() => setEditing(false)} onSaved={() => { setEditing(false); void load(); }} />}
    </div>
  );
}
