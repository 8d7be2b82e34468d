import { ArrowLeftOutlined } from '@ant-design/icons';
import { useCan, useCustomMutation, useDelete, useTranslation } from '@refinedev/core';
import { Alert, App, Button, Empty, Flex, Result, Space, Spin, theme } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useProject } from '../../app/project-settings.tsx';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { DashboardGrid } from './dashboard-grid.tsx';
import { DashboardToolbar } from './dashboard-toolbar.tsx';
import type { PanelPlacement } from './grid-layout.ts';
import { PanelEditor } from './panel-editor.tsx';
import type { PanelRecord } from './panel-types.ts';
import { useDashboard, useDashboardData } from './use-dashboard.ts';
import { dashboardVariables } from './variables.ts';

/** One dashboard: its panels on the grid with live data, the controls above, and edit mode. */
export default function DashboardPage() {
  const { id = '' } = useParams();
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const { project } = useProject();
  const timeZone = project.time_zone || 'UTC';
  const { dashboard, panels } = useDashboard(id);
  const panelRows = useMemo(() => panels.result.data ?? [], [panels.result.data]);
  const [chosen, setChosen] = useState<Record<string, unknown>>({});
  const [range, setRange] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [editing, setEditing] = useState(false);
  const [fullScreen, setFullScreen] = useState(false);
  const [editorFor, setEditorFor] = useState<PanelRecord | 'new' | null>(null);
  const variables = useMemo(() => dashboardVariables(panelRows, chosen), [panelRows, chosen]);
  const data = useDashboardData(id, variables, range, refresh);
  const { mutateAsync: patchPanels } = useCustomMutation();
  const { mutateAsync: remove } = useDelete();
  const { data: canUpdate } = useCan({ resource: 'panels', action: 'edit' });
  const { data: canCreate } = useCan({ resource: 'panels', action: 'create' });
  const frame = useRef<HTMLDivElement>(null);

  // Full screen: the browser's when it grants it, else the dashboard covers the window; Escape leaves both.
  useEffect(() => {
    if (!fullScreen) {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      return;
    }
    frame.current?.requestFullscreen?.().catch(() => undefined);
    const leave = () => {
      if (!document.fullscreenElement) setFullScreen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setFullScreen(false);
    };
    document.addEventListener('fullscreenchange', leave);
    window.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('fullscreenchange', leave);
      window.removeEventListener('keydown', escape);
    };
  }, [fullScreen]);

  const choose = useCallback((name: string, value: unknown) => setChosen((current) => ({ ...current, [name]: value })), []);

  // All moved panels in one PATCH /panels (one transaction on the server).
  const move = async (changes: Array<{ id: string; placement: PanelPlacement }>) => {
    try {
      await patchPanels({ url: '/panels', method: 'patch', values: changes.map((change) => ({ id: change.id, ...change.placement })) as never, successNotification: false, errorNotification: false });
    } catch (failure) {
      message.error((failure as { message?: string }).message ?? translate('insights.errors.save'));
    }
    await panels.query.refetch();
  };

  if (dashboard.query.isError) {
    return <Result status="404" title={translate('insights.notFound')} extra={<Button onClick={() => navigate('/insights')}>{translate('shared.actions.back')}</Button>} />;
  }
  const record = dashboard.result;
  const dataError = data.query.error as { message?: string } | null;

  return (
    <div
      ref={frame}
      data-testid="dashboard-frame"
      data-fullscreen={fullScreen ? 'true' : 'false'}
      style={fullScreen ? { position: 'fixed', inset: 0, zIndex: 1000, overflow: 'auto', padding: 20, background: token.colorBgLayout } : undefined}
    >
      <PageHeader
        testId="dashboard-title"
        title={
          <Space>
            {fullScreen ? null : <Button type="text" icon={<ArrowLeftOutlined />} aria-label={translate('shared.actions.back')} onClick={() => navigate('/insights')} />}
            {record ? <CollectionIcon name={record.icon} color={record.color} /> : null}
            {record?.name ?? ''}
          </Space>
        }
        subtitle={record?.note ?? undefined}
        actions={
          <DashboardToolbar
            range={range}
            onRange={setRange}
            refresh={refresh}
            onRefresh={setRefresh}
            onReload={() => void data.query.refetch()}
            reloading={data.query.isFetching}
            fullScreen={fullScreen}
            onFullScreen={setFullScreen}
            editing={editing}
            canEdit={!!(canUpdate?.can || canCreate?.can)}
            onEditing={setEditing}
            onAdd={() => setEditorFor('new')}
          />
        }
      />
      {dataError ? <Alert type="error" showIcon message={dataError.message ?? translate('insights.errors.data')} style={{ marginBottom: 12 }} data-testid="dashboard-data-error" /> : null}
      {panels.query.isLoading ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin />
        </Flex>
      ) : panelRows.length === 0 ? (
        <Empty description={translate('insights.emptyDashboard')} style={{ padding: 48 }}>
          {!editing && (canCreate?.can ?? false) ? (
            <Button
              type="primary"
              onClick={() => {
                setEditing(true);
                setEditorFor('new');
              }}
            >
              {translate('insights.panel.add')}
            </Button>
          ) : null}
        </Empty>
      ) : (
        <DashboardGrid
          panels={panelRows}
          data={data.result.data}
          loading={data.query.isFetching}
          editing={editing}
          timeZone={timeZone}
          chosen={chosen}
          onChoose={choose}
          onMove={(changes) => void move(changes)}
          onEdit={(panel) => setEditorFor(panel)}
          onDelete={async (panel) => {
            await remove({ resource: 'panels', id: panel.id, successNotification: false });
            await panels.query.refetch();
          }}
        />
      )}
      <PanelEditor
        open={editorFor !== null}
        dashboard={id}
        panel={editorFor === 'new' ? null : editorFor}
        panels={panelRows}
        variables={variables}
        timeZone={timeZone}
        onClose={(saved) => {
          setEditorFor(null);
          if (saved) void panels.query.refetch().then(() => data.query.refetch());
        }}
      />
    </div>
  );
}
