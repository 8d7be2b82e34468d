import type { KeyboardEvent } from 'react';

/** The next (or previous) table row after `row`, skipping rows antd adds for its own use. */
function siblingRow(row: HTMLElement, step: 1 | -1): HTMLElement | null {
  let next = (step === 1 ? row.nextElementSibling : row.previousElementSibling) as HTMLElement | null;
  while (next && !next.classList.contains('ant-table-row')) next = (step === 1 ? next.nextElementSibling : next.previousElementSibling) as HTMLElement | null;
  return next;
}

/**
 * Keyboard use of a list's rows (each row is focusable): ↑/↓ move the focus to the previous/next row,
 * Home/End to the first/last, Enter opens the focused item, Space selects or unselects it. Keys pressed
 * inside a row's controls (its checkbox, the order buttons) keep their own meaning.
 */
export function rowKeyHandler(actions: { open(): void; toggle?: () => void }) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    const row = event.currentTarget;
    let target: HTMLElement | null = null;
    if (event.key === 'ArrowDown') target = siblingRow(row, 1);
    else if (event.key === 'ArrowUp') target = siblingRow(row, -1);
    else if (event.key === 'Home' || event.key === 'End') {
      const rows = row.parentElement?.querySelectorAll<HTMLElement>(':scope > .ant-table-row');
      target = rows && rows.length > 0 ? rows[event.key === 'Home' ? 0 : rows.length - 1]! : null;
    } else if (event.key === 'Enter') {
      event.preventDefault();
      actions.open();
      return;
    } else if (event.key === ' ' && actions.toggle) {
      event.preventDefault();
      actions.toggle();
      return;
    } else return;
    event.preventDefault();
    target?.focus();
  };
}
