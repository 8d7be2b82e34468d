import { useList, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Card, Flex, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { bundleIds, extensionName, extensionRows, failedToLoad, type ExtensionRecord, type ExtensionRow } from './extension-rows.ts';

const STATUS_COLORS: Record<ExtensionRecord['status'], string> = { loaded: 'success', disabled: 'default', error: 'error', incompatible: 'warning' };

/** A failed switch: which extension, which way, and the server's message. */
interface ToggleFailure {
  name: string;
  enabled: boolean;
  message: string;
}

function ExtensionsList() {
  const { translate } = useTranslation();
  const { result, query } = useList<ExtensionRecord>({ resource: 'extensions', pagination: { mode: 'off' } });
  const { mutateAsync: update } = useUpdate<ExtensionRecord>();
  // A PATCH answers the updated extension: shown at once, until the list is read again.
  const [answered, setAnswered] = useState<ReadonlyMap<string, ExtensionRecord>>(new Map());
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const [failure, setFailure] = useState<ToggleFailure | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => setAnswered(new Map()), [query.dataUpdatedAt]);
  const rows = useMemo(() => extensionRows(result.data, answered), [result.data, answered]);
  const expanded = bundleIds(rows).filter((id) => !collapsed.has(id));

  const toggle = async (extension: ExtensionRecord, enabled: boolean) => {
    setFailure(null);
    setSaving((current) => new Set(current).add(extension.id));
    try {
      const { data } = await update({ resource: 'extensions', id: extension.id, values: { meta: { enabled } }, successNotification: false, errorNotification: false });
      setAnswered((current) => new Map(current).set(extension.id, data));
    } catch (error) {
      setFailure({ name: extensionName(extension), enabled, message: (error as Error).message });
    } finally {
      setSaving((current) => {
        const next = new Set(current);
        next.delete(extension.id);
        return next;
      });
    }
  };

  return (
    <>
      <PageHeader title={translate('extensions.title')} subtitle={translate('extensions.subtitle')} testId="extensions-title" />
      {failure ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setFailure(null)}
          message={translate(failure.enabled ? 'extensions.enableFailed' : 'extensions.disableFailed', { name: failure.name })}
          description={failure.message}
          style={{ marginBottom: 16 }}
          data-testid="extensions-toggle-error"
        />
      ) : null}
      {query.error ? <Alert type="error" showIcon message={query.error.message} style={{ marginBottom: 16 }} /> : null}
      <Card size="small">
        <Table<ExtensionRow>
          rowKey="id"
          size="middle"
          loading={query.isLoading}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: translate('extensions.empty') }}
          expandable={{
            expandedRowKeys: expanded,
            onExpand: (open, row) =>
              setCollapsed((current) => {
                const next = new Set(current);
                if (open) next.delete(row.id);
                else next.add(row.id);
                return next;
              }),
          }}
          onRow={(extension) => ({ 'data-testid': `extension-row-${extensionName(extension)}` }) as never}
          columns={[
            { title: translate('extensions.fields.name'), key: 'name', render: (_, extension) => <Typography.Text strong={!extension.bundle}>{extensionName(extension)}</Typography.Text> },
            {
              title: translate('extensions.fields.type'),
              key: 'type',
              render: (_, extension) => <Tag data-testid={`extension-type-${extensionName(extension)}`}>{translate(`extensions.types.${extension.schema?.type ?? 'unknown'}`, extension.schema?.type ?? '')}</Tag>,
            },
            { title: translate('extensions.fields.version'), key: 'version', render: (_, extension) => extension.schema?.version ?? '' },
            { title: translate('extensions.fields.source'), key: 'source', render: (_, extension) => translate(`extensions.sources.${extension.meta.source}`, extension.meta.source) },
            {
              title: translate('extensions.fields.status'),
              key: 'status',
              render: (_, extension) => (
                <Flex vertical gap={4} align="flex-start" style={{ maxWidth: 420 }}>
                  <Tag color={STATUS_COLORS[extension.status]} data-testid={`extension-status-${extensionName(extension)}`}>
                    {translate(`extensions.status.${extension.status}`, extension.status)}
                  </Tag>
                  {failedToLoad(extension) && extension.error ? (
                    <Typography.Text type={extension.status === 'incompatible' ? 'warning' : 'danger'} style={{ whiteSpace: 'normal' }} data-testid={`extension-error-${extensionName(extension)}`}>
                      {extension.error}
                    </Typography.Text>
                  ) : null}
                </Flex>
              ),
            },
            {
              title: translate('extensions.fields.enabled'),
              key: 'enabled',
              width: 100,
              render: (_, extension) => (
                <Switch
                  size="small"
                  checked={extension.meta.enabled}
                  loading={saving.has(extension.id)}
                  disabled={saving.has(extension.id)}
                  aria-label={`${translate('extensions.fields.enabled')}: ${extensionName(extension)}`}
                  data-testid={`extension-enabled-${extensionName(extension)}`}
                  onChange={(on) => void toggle(extension, on)}
                />
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}

/** Settings → Extensions (administrators only: the API answers no one else). */
export default function ExtensionsPage() {
  return (
    <AdminOnly>
      <ExtensionsList />
    </AdminOnly>
  );
}
