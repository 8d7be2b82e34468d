import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Card, Input, Table, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { LOCALES } from '../../i18n/locales.ts';
import { apiData, apiRequest } from '../../providers/http-client.ts';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { TranslationCellModal, type CellTarget } from './translation-cell-modal.tsx';
import { cellChange, searchGrid, toGrid, type TranslationRecord, type TranslationRow } from './translation-grid.ts';

const SHIPPED = LOCALES.map((locale) => locale.code);

/**
 * Custom translation strings (tessera_translations): one row per key, one column per language; a cell
 * opens its value, an emptied value removes it. Keys are used as `$t:key` in collection and field names
 * and notes, and override the admin's own texts of the same key.
 */
function TranslationsScreen() {
  const { translate } = useTranslation();
  const { reloadOverrides } = usePreferences();
  const [records, setRecords] = useState<TranslationRecord[] | null>(null);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<CellTarget | null>(null);

  const load = useCallback(async () => {
    setRecords((await apiData<TranslationRecord[]>('/translations', { query: { fields: 'id,key,language,value', limit: -1, sort: 'key' } })) ?? []);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const grid = useMemo(() => toGrid(records ?? [], SHIPPED), [records]);
  const rows = useMemo(() => searchGrid(grid.rows, search), [grid, search]);

  const save = async ({ key, language, value }: { key: string; language: string; value: string }) => {
    const current = grid.rows.find((row) => row.key === key)?.values[language];
    const change = cellChange(current, value);
    if (change?.kind === 'create') await apiRequest('/translations', { method: 'POST', body: { key: key.trim(), language, value } });
    if (change?.kind === 'update') await apiRequest(`/translations/${change.id}`, { method: 'PATCH', body: { value } });
    if (change?.kind === 'delete') await apiRequest(`/translations/${change.id}`, { method: 'DELETE' });
    await Promise.all([load(), reloadOverrides()]);
  };

  return (
    <>
      <PageHeader
        title={translate('translations.title')}
        subtitle={translate('translations.subtitle')}
        testId="translations-title"
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ key: null, language: SHIPPED[0]!, value: '' })} data-testid="translation-create">
            {translate('translations.create')}
          </Button>
        }
      />
      <Card size="small">
        <Input.Search allowClear placeholder={translate('translations.search')} value={search} onChange={(event) => setSearch(event.target.value)} style={{ maxWidth: 320, marginBottom: 12 }} data-testid="translations-search" />
        <Table<TranslationRow>
          rowKey="key"
          size="middle"
          loading={records === null}
          dataSource={rows}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: translate('translations.empty') }}
          onRow={(row) => ({ 'data-testid': `translation-row-${row.key}` }) as never}
          columns={[
            { title: translate('translations.key'), dataIndex: 'key', key: 'key', fixed: 'left', render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
            ...grid.languages.map((language) => ({
              title: language,
              key: language,
              render: (_: unknown, row: TranslationRow) => {
                const cell = row.values[language];
                return (
                  <Button type="text" size="small" onClick={() => setEditing({ key: row.key, language, value: cell?.value ?? '' })} data-testid={`translation-cell-${row.key}-${language}`} style={{ maxWidth: 320, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}>
                    {cell ? cell.value : <Typography.Text type="secondary">{translate('translations.missing')}</Typography.Text>}
                  </Button>
                );
              },
            })),
          ]}
        />
      </Card>
      <TranslationCellModal target={editing} languages={grid.languages} onSave={save} onClose={() => setEditing(null)} />
    </>
  );
}

export default function TranslationsPage() {
  return (
    <AdminOnly>
      <TranslationsScreen />
    </AdminOnly>
  );
}
