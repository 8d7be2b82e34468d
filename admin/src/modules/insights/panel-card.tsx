import { DeleteOutlined, DragOutlined, EditOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Card, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import type { PanelResult } from './panel-results.ts';
import type { PanelRecord } from './panel-types.ts';
import { PanelContent, usePanelTypeName } from './panel-content.tsx';

/** One panel on the grid: its header (name, icon, note), its content, and in edit mode its tools. */
export function PanelCard({ panel, result, loading, editing, timeZone, variable, onEdit, onDelete }: {
  panel: PanelRecord;
  result: PanelResult | undefined;
  loading: boolean;
  editing: boolean;
  timeZone: string;
  variable?: { value: unknown; onChange(value: unknown): void };
  onEdit(): void;
  onDelete(): void;
}) {
  const { translate } = useTranslation();
  const typeName = usePanelTypeName();
  const title = panel.name || typeName(panel.type);
  const showHeader = panel.show_header || editing;
  const tools = editing ? (
    <Space size={2}>
      <DragOutlined className="insights-drag-handle" style={{ cursor: 'move', padding: 4 }} aria-label={translate('insights.panel.move')} data-testid={`panel-drag-${panel.id}`} />
      <Button size="small" type="text" icon={<EditOutlined />} aria-label={translate('insights.panel.edit')} title={translate('insights.panel.edit')} onClick={onEdit} data-testid={`panel-edit-${panel.id}`} />
      <Popconfirm title={translate('insights.panel.deleteConfirm')} okText={translate('shared.actions.delete')} cancelText={translate('shared.actions.cancel')} okButtonProps={{ danger: true }} onConfirm={onDelete}>
        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={translate('shared.actions.delete')} title={translate('shared.actions.delete')} data-testid={`panel-delete-${panel.id}`} />
      </Popconfirm>
    </Space>
  ) : null;

  return (
    <Card
      size="small"
      data-testid={`panel-${panel.id}`}
      data-panel-name={panel.name ?? ''}
      style={{ height: '100%', display: 'flex', flexDirection: 'column', borderTop: panel.color ? `3px solid ${panel.color}` : undefined }}
      styles={{ body: { flex: 1, minHeight: 0, overflow: 'hidden', padding: 12 }, header: { minHeight: 36 } }}
      title={
        showHeader ? (
          <Space size={6}>
            {panel.icon ? <CollectionIcon name={panel.icon} color={panel.color} /> : null}
            <Typography.Text strong ellipsis>{title}</Typography.Text>
            {panel.note ? (
              <Tooltip title={panel.note}>
                <InfoCircleOutlined style={{ opacity: 0.55 }} />
              </Tooltip>
            ) : null}
          </Space>
        ) : undefined
      }
      extra={tools}
    >
      <PanelContent type={panel.type} options={panel.options ?? {}} result={result} loading={loading} timeZone={timeZone} testId={`panel-content-${panel.id}`} variable={variable} />
    </Card>
  );
}
