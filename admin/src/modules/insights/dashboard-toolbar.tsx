import { CheckOutlined, EditOutlined, FullscreenExitOutlined, FullscreenOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Select, Space, Tooltip } from 'antd';
import { choiceKey } from './option-fields.ts';
import { RANGES, REFRESH_INTERVALS } from './panel-types.ts';

/** Date range override, auto-refresh, reload, full screen, and the edit mode switch. */
export function DashboardToolbar({ range, onRange, refresh, onRefresh, onReload, reloading, fullScreen, onFullScreen, editing, canEdit, onEditing, onAdd }: {
  range: string | null;
  onRange(range: string | null): void;
  refresh: number;
  onRefresh(seconds: number): void;
  onReload(): void;
  reloading: boolean;
  fullScreen: boolean;
  onFullScreen(on: boolean): void;
  editing: boolean;
  canEdit: boolean;
  onEditing(on: boolean): void;
  onAdd(): void;
}) {
  const { translate } = useTranslation();
  return (
    <Space wrap>
      <Select
        style={{ width: 200 }}
        value={range ?? ''}
        onChange={(value) => onRange(value || null)}
        data-testid="dashboard-range"
        aria-label={translate('insights.toolbar.range')}
        options={[{ value: '', label: translate('insights.toolbar.rangePanels') }, ...RANGES.filter((value) => value !== 'auto').map((value) => ({ value, label: translate(choiceKey('range', value)) }))]}
      />
      <Select
        style={{ width: 190 }}
        value={refresh}
        onChange={onRefresh}
        data-testid="dashboard-refresh"
        aria-label={translate('insights.toolbar.refresh')}
        options={REFRESH_INTERVALS.map((seconds) => ({ value: seconds, label: translate(`insights.toolbar.every.${seconds}`) }))}
      />
      <Tooltip title={translate('insights.toolbar.reload')}>
        <Button icon={<ReloadOutlined />} loading={reloading} onClick={onReload} aria-label={translate('insights.toolbar.reload')} data-testid="dashboard-reload" />
      </Tooltip>
      <Tooltip title={translate(fullScreen ? 'insights.toolbar.exitFullScreen' : 'insights.toolbar.fullScreen')}>
        <Button icon={fullScreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={() => onFullScreen(!fullScreen)} aria-label={translate(fullScreen ? 'insights.toolbar.exitFullScreen' : 'insights.toolbar.fullScreen')} data-testid="dashboard-fullscreen" />
      </Tooltip>
      {canEdit && !fullScreen ? (
        editing ? (
          <>
            <Button icon={<PlusOutlined />} onClick={onAdd} data-testid="panel-add">
              {translate('insights.panel.add')}
            </Button>
            <Button type="primary" icon={<CheckOutlined />} onClick={() => onEditing(false)} data-testid="dashboard-done">
              {translate('insights.toolbar.done')}
            </Button>
          </>
        ) : (
          <Button icon={<EditOutlined />} onClick={() => onEditing(true)} data-testid="dashboard-edit">
            {translate('insights.toolbar.edit')}
          </Button>
        )
      ) : null}
    </Space>
  );
}
