import { theme } from 'antd';
import { useMemo } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { GRID_COLUMNS, GRID_ROW_HEIGHT, changedPlacements, toGridItem, type PanelPlacement } from './grid-layout.ts';
import { PanelCard } from './panel-card.tsx';
import type { DashboardData } from './panel-results.ts';
import type { PanelRecord } from './panel-types.ts';
import { variableName } from './variables.ts';

/**
 * The dashboard's panels on a 24-column grid. In edit mode panels are dragged by their handle and
 * resized from the corner; when one stops, every panel whose place changed is handed to `onMove`.
 */
export function DashboardGrid({ panels, data, loading, editing, timeZone, chosen, onChoose, onMove, onEdit, onDelete }: {
  panels: PanelRecord[];
  data: DashboardData | undefined;
  loading: boolean;
  editing: boolean;
  timeZone: string;
  chosen: Record<string, unknown>;
  onChoose(name: string, value: unknown): void;
  onMove(changes: Array<{ id: string; placement: PanelPlacement }>): void;
  onEdit(panel: PanelRecord): void;
  onDelete(panel: PanelRecord): void;
}) {
  const { token } = theme.useToken();
  const { width, containerRef, mounted } = useContainerWidth();
  // The stored placement is the only layout fed in: the grid keeps its own state while dragging, and
  // echoing its changes back as a prop makes it lay out again, in a loop, once a panel is added.
  const layout = useMemo(() => panels.map(toGridItem), [panels]);

  const settle = (next: Layout) => {
    const changes = changedPlacements(panels, next.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })));
    if (changes.length > 0) onMove(changes);
  };

  return (
    <div ref={containerRef} data-testid="dashboard-grid" style={{ minHeight: 200, ['--insights-placeholder' as string]: token.colorPrimaryBg }}>
      {mounted ? (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: GRID_ROW_HEIGHT, margin: [12, 12], containerPadding: [0, 0] }}
          dragConfig={{ enabled: editing, handle: '.insights-drag-handle' }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          compactor={verticalCompactor}
          onDragStop={(next) => settle(next)}
          onResizeStop={(next) => settle(next)}
        >
          {panels.map((panel) => {
            const name = variableName(panel);
            return (
              <div key={panel.id}>
                <PanelCard
                  panel={panel}
                  result={data?.[panel.id]}
                  loading={loading}
                  editing={editing}
                  timeZone={timeZone}
                  variable={name ? { value: chosen[name] ?? (panel.type === 'global-variable' ? panel.options?.defaultValue : undefined), onChange: (value) => onChoose(name, value) } : undefined}
                  onEdit={() => onEdit(panel)}
                  onDelete={() => onDelete(panel)}
                />
              </div>
            );
          })}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}
