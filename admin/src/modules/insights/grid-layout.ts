import type { PanelRecord } from './panel-types.ts';

/**
 * Panels ↔ react-grid-layout items. Stored positions are 1-based grid cells as Directus stores them
 * (position_x 1 is the first column); the grid library counts from 0.
 */

export const GRID_COLUMNS = 24;
export const GRID_ROW_HEIGHT = 40;

export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PanelPlacement {
  position_x: number;
  position_y: number;
  width: number;
  height: number;
}

export function toGridItem(panel: PanelRecord): GridItem {
  const w = Math.min(Math.max(1, panel.width || 1), GRID_COLUMNS);
  return { i: panel.id, x: Math.min(Math.max(0, (panel.position_x || 1) - 1), GRID_COLUMNS - w), y: Math.max(0, (panel.position_y || 1) - 1), w, h: Math.max(1, panel.height || 1) };
}

export function toPlacement(item: GridItem): PanelPlacement {
  return { position_x: item.x + 1, position_y: item.y + 1, width: item.w, height: item.h };
}

/** The panels whose place or size differs in the new layout, with their new placement (one PATCH each). */
export function changedPlacements(panels: readonly PanelRecord[], layout: readonly GridItem[]): Array<{ id: string; placement: PanelPlacement }> {
  const byId = new Map(panels.map((panel) => [panel.id, panel]));
  const changed: Array<{ id: string; placement: PanelPlacement }> = [];
  for (const item of layout) {
    const panel = byId.get(item.i);
    if (!panel) continue;
    const placement = toPlacement(item);
    if (placement.position_x !== panel.position_x || placement.position_y !== panel.position_y || placement.width !== panel.width || placement.height !== panel.height) changed.push({ id: item.i, placement });
  }
  return changed;
}

/**
 * Where a new panel goes: the first free place of its size, row by row from the top (so panels fill the
 * dashboard's width rather than piling up in the first column), else below every panel there is.
 */
export function placementForNew(panels: readonly PanelRecord[], size: { width: number; height: number }): PanelPlacement {
  const width = Math.min(size.width, GRID_COLUMNS);
  const bottom = panels.reduce((lowest, panel) => Math.max(lowest, (panel.position_y || 1) + (panel.height || 1)), 1);
  const overlaps = (x: number, y: number) =>
    panels.some((panel) => x < panel.position_x + panel.width && panel.position_x < x + width && y < panel.position_y + panel.height && panel.position_y < y + size.height);
  for (let y = 1; y < bottom; y++) {
    for (let x = 1; x + width - 1 <= GRID_COLUMNS; x++) {
      if (!overlaps(x, y)) return { position_x: x, position_y: y, width, height: size.height };
    }
  }
  return { position_x: 1, position_y: bottom, width, height: size.height };
}
