import { useState, type CSSProperties, type DragEvent } from 'react';

/** Row props for HTML5 drag and drop (spread into a table row). */
export interface DragRowProps {
  draggable?: boolean;
  onDragStart?: (event: DragEvent) => void;
  onDragOver?: (event: DragEvent) => void;
  onDrop?: (event: DragEvent) => void;
  onDragEnd?: () => void;
  style?: CSSProperties;
  /** Where the dragged row will land: index.html draws a line on that side of the row's cells. */
  'data-drop'?: 'above' | 'below';
}

/**
 * Manual ordering by dragging rows (native HTML5 drag events, no library): drop a row on another and
 * `onMove(dragged, target)` runs. The target row shows a line on the side the dragged row will land,
 * above it when moving up and below it when moving down, in `colour`.
 */
export function useRowDrag<Row>(enabled: boolean, onMove: (dragged: Row, target: Row) => void) {
  const [dragged, setDragged] = useState<{ row: Row; index: number } | null>(null);
  const [over, setOver] = useState<Row | null>(null);
  const reset = () => {
    setDragged(null);
    setOver(null);
  };

  const rowProps = (row: Row, index: number, colour: string): DragRowProps => {
    if (!enabled) return {};
    const isTarget = dragged !== null && over === row && dragged.row !== row;
    return {
      draggable: true,
      onDragStart: (event) => {
        event.dataTransfer.effectAllowed = 'move';
        // Some browsers start a drag only with data set.
        event.dataTransfer.setData('text/plain', String(index));
        setDragged({ row, index });
      },
      onDragOver: (event) => {
        if (!dragged) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (over !== row) setOver(row);
      },
      onDrop: (event) => {
        event.preventDefault();
        if (dragged && dragged.row !== row) onMove(dragged.row, row);
        reset();
      },
      onDragEnd: reset,
      style: { ['--tessera-drop' as string]: colour, ...(dragged?.row === row ? { opacity: 0.45 } : {}) },
      'data-drop': isTarget ? (dragged.index > index ? 'above' : 'below') : undefined,
    };
  };
  return { rowProps, dragging: dragged !== null };
}
