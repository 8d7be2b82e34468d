import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Dropdown, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { API_URL, apiRequest, toQueryString, type ApiHttpError } from '../../providers/http-client.ts';
import type { TesseraFilter } from '../../providers/query-mapping.ts';
import { fieldLabel } from '../field-label.ts';
import { useCollection } from './use-collection.ts';

const FORMATS = [
  { id: 'csv', label: 'CSV' },
  { id: 'json', label: 'JSON' },
  { id: 'yaml', label: 'YAML' },
] as const;

/** The view a download reproduces: its columns (as read paths), filter, search and sort, every page. */
export interface ExportView {
  fields: string[];
  filter: TesseraFilter | null;
  search: string;
  sort: string[];
}

/** `GET /items/<collection>?…&export=<format>`: the API answers the view's items as a file (docs/api.md). */
export function exportUrl(collection: string, view: ExportView, format: string): string {
  const query = toQueryString({ fields: view.fields, filter: view.filter, search: view.search, sort: view.sort, limit: -1, export: format });
  return `${API_URL}/items/${encodeURIComponent(collection)}${query}`;
}

/** An import refusal as the list shows it: the row (the file's line) and the field it names, then the reason. */
function importFailure(error: ApiHttpError, labelOf: (field: string) => string, translate: (key: string, options?: Record<string, unknown>) => string): { where: string | null; reason: string } {
  const line = /^Line (\d+):\s*/.exec(error.message);
  const field = Object.keys(error.errors ?? {})[0];
  const reason = line ? error.message.slice(line[0].length) : error.message;
  if (!line) return { where: null, reason };
  return { where: field ? translate('content.transfer.errorAt', { line: line[1], field: labelOf(field) }) : translate('content.transfer.errorRow', { line: line[1] }), reason };
}

/** Export the current view (CSV, JSON, YAML) and import a file into the collection, from the list's toolbar. */
export function ListTransfer({ collection, view }: { collection: string; view: ExportView }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { locale } = usePreferences();
  const invalidate = useInvalidate();
  const model = useCollection(collection);
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ where: string | null; reason: string } | null>(null);
  const labelOf = (name: string) => {
    const field = model.fields.find((entry) => entry.field === name);
    return field ? fieldLabel(field, locale) : name;
  };

  const upload = async (file: File) => {
    setBusy(true);
    setFailure(null);
    const body = new FormData();
    body.append('file', file, file.name);
    try {
      const answer = await apiRequest<{ data: { created: number } }>(`/utils/import/${encodeURIComponent(collection)}`, { method: 'POST', body });
      message.success(translate('content.transfer.imported', { count: answer.data.created }));
      await invalidate({ resource: collection, invalidates: ['list', 'many'] });
      setImporting(false);
    } catch (error) {
      setFailure(importFailure(error as ApiHttpError, labelOf, translate));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            ...FORMATS.map((format) => ({ key: format.id, label: <a href={exportUrl(collection, view, format.id)} download data-testid={`export-${format.id}`}>{translate('content.transfer.exportAs', { format: format.label })}</a> })),
            ...(model.can('create') ? [{ type: 'divider' as const }, { key: 'import', icon: <UploadOutlined />, label: <span data-testid="import-open">{translate('content.transfer.import')}</span>, onClick: () => setImporting(true) }] : []),
          ],
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="transfer-menu">
          {translate('content.transfer.export')}
        </Button>
      </Dropdown>
      <Modal
        open={importing}
        title={translate('content.transfer.importTitle', { collection: model.label })}
        onCancel={() => {
          setImporting(false);
          setFailure(null);
        }}
        footer={null}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{translate('content.transfer.importHelp')}</Typography.Paragraph>
        <Upload
          accept=".csv,.json,.ndjson,.jsonl,text/csv,application/json"
          showUploadList={false}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} data-testid="import-pick">
            {translate('content.transfer.pick')}
          </Button>
        </Upload>
        {failure && <Alert style={{ marginTop: 16 }} type="error" showIcon message={failure.where ? `${translate('content.transfer.importFailed')}: ${failure.where}` : translate('content.transfer.importFailed')} description={failure.reason} data-testid="import-error" />}
      </Modal>
    </>
  );
}
