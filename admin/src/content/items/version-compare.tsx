import { useTranslate } from '@refinedev/core';
import { Alert, App, Button, Checkbox, Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { fieldLabel } from '../field-label.ts';
import type { FieldInfo } from '../schema/types.ts';
import type { Locale } from '../../app/module.ts';
import { relationalKind } from '../field-kinds.ts';
import { CellValue } from './cell-value.tsx';
import { compareVersion, promoteVersion, type VersionComparison, type VersionRecord } from './versions-api.ts';

const shown = (value: unknown): string => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** A compared value as the list shows it (the field's display, else by its type); relational values, keys here, as text. */
function ComparedValue({ field, value, locale }: { field: FieldInfo | undefined; value: unknown; locale: Locale }) {
  if (!field || relationalKind(field)) return <>{shown(value)}</>;
  return <CellValue field={field} value={value} target={null} locale={locale} />;
}

/**
 * Main beside the version for each field the version changes, each picked (or not) for promotion. A main
 * item changed since the version was made is said, and promoting then needs a second, explicit choice.
 */
export function VersionCompare({ version, fields, open, onClose, onPromoted }: { version: VersionRecord; fields: FieldInfo[]; open: boolean; onClose(): void; onPromoted(): void }) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const { message } = App.useApp();
  const [comparison, setComparison] = useState<VersionComparison | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setComparison(null);
    setError(null);
    compareVersion(version.id).then(
      (result) => {
        setComparison(result);
        setPicked(Object.keys(result.current));
      },
      (failure: ApiHttpError) => setError(failure.message),
    );
  }, [open, version.id]);

  const changed = Object.keys(comparison?.current ?? {});
  const labelOf = (name: string) => {
    const field = fields.find((entry) => entry.field === name);
    return field ? fieldLabel(field, locale) : name;
  };

  const promote = async (overwrite: boolean) => {
    if (!comparison) return;
    setBusy(true);
    setError(null);
    try {
      await promoteVersion(version.id, picked, overwrite ? comparison.mainHash : undefined);
      message.success(translate('content.versions.promoted'));
      onPromoted();
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      width={860}
      title={translate('content.versions.compareTitle', { name: version.name || version.key })}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {translate('content.versions.cancel')}
        </Button>,
        comparison?.outdated ? (
          <Button key="overwrite" danger loading={busy} disabled={picked.length === 0} onClick={() => promote(true)} data-testid="version-promote-anyway">
            {translate('content.versions.promoteAnyway')}
          </Button>
        ) : (
          <Button key="promote" type="primary" loading={busy} disabled={picked.length === 0} onClick={() => promote(false)} data-testid="version-promote">
            {translate('content.versions.promote')}
          </Button>
        ),
      ]}
    >
      {comparison?.outdated && <Alert type="warning" showIcon message={translate('content.versions.outdated')} style={{ marginBottom: 12 }} data-testid="version-outdated" />}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="version-compare-error" />}
      <Table<string>
        rowKey={(name) => name}
        size="small"
        loading={comparison === null && !error}
        dataSource={changed}
        pagination={false}
        locale={{ emptyText: translate('content.versions.noChanges') }}
        columns={[
          {
            key: 'pick',
            width: 40,
            render: (_, name) => <Checkbox checked={picked.includes(name)} onChange={(event) => setPicked(event.target.checked ? [...picked, name] : picked.filter((entry) => entry !== name))} data-testid={`version-pick-${name}`} />,
          },
          { key: 'field', title: translate('content.versions.field'), render: (_, name) => <Typography.Text strong>{labelOf(name)}</Typography.Text> },
          { key: 'main', title: translate('content.versions.main'), render: (_, name) => <Typography.Text type="secondary" delete>
                <ComparedValue field={fields.find((entry) => entry.field === name)} value={comparison?.main[name]} locale={locale} />
              </Typography.Text> },
          { key: 'version', title: version.name || version.key, render: (_, name) => <Typography.Text data-testid={`version-value-${name}`}>
                <ComparedValue field={fields.find((entry) => entry.field === name)} value={comparison?.current[name]} locale={locale} />
              </Typography.Text> },
        ]}
      />
    </Modal>
  );
}
