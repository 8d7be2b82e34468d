import { useRef, type MouseEvent as ReactMouseEvent, type ThHTMLAttributes } from 'react';

/** What a resizable header cell takes besides a th's attributes (antd passes `onHeaderCell`'s result). */
export interface ResizableHeaderProps extends ThHTMLAttributes<HTMLTableCellElement> {
  /** The column's width while it is dragged, then once more when the drag ends (`done`). */
  onResize?(width: number, done: boolean): void;
}

/** Narrower than this a column cannot be dragged. */
const MIN_WIDTH = 60;

/** A table header cell with a handle on its right edge: dragging it sets the column's width. */
export function ResizableHeaderCell({ onResize, children, ...rest }: ResizableHeaderProps) {
  const cell = useRef<HTMLTableCellElement>(null);
  if (!onResize) return <th {...rest}>{children}</th>;
  const start = (event: ReactMouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const startWidth = cell.current?.offsetWidth ?? MIN_WIDTH;
    const widthAt = (x: number) => Math.max(MIN_WIDTH, Math.round(startWidth + x - startX));
    const move = (moved: MouseEvent) => onResize(widthAt(moved.clientX), false);
    const up = (released: MouseEvent) => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      onResize(widthAt(released.clientX), true);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };
  return (
    <th {...rest} ref={cell}>
      {children}
      <span
        role="separator"
        aria-orientation="vertical"
        onMouseDown={start}
        onClick={(event) => event.stopPropagation()}
        style={{ position: 'absolute', top: 0, right: 0, width: 8, height: '100%', cursor: 'col-resize', zIndex: 1 }}
        data-testid="column-resize"
      />
    </th>
  );
}
