import { useTranslate, useWarnAboutChange } from '@refinedev/core';
import { App, type ButtonProps } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

/** What the item form tells the guard: the edits were saved or carried elsewhere, or a save failed and they are still here. */
export interface UnsavedChanges {
  /** Whether the form holds edits not saved yet. */
  dirty: boolean;
  /** The edits are safe (saved, or carried into a copy): leaving no longer asks. */
  release(): void;
  /** A save failed: the edits are unsaved again. */
  markDirty(): void;
}

/**
 * Guards a form's unsaved edits (Refine's `warnWhen`, set by the form on every change): closing or
 * reloading the tab asks the browser's question, and any navigation in the app (links, menus, back
 * buttons, the browser's Back and Forward) is held while "Discard changes / Keep editing" is asked.
 */
export function useUnsavedChanges(): UnsavedChanges {
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const translate = useTranslate();
  const { modal } = App.useApp();
  const dirty = useRef(warnWhen);
  dirty.current = warnWhen;

  // The flag is Refine's, shared by every form: this form neither inherits another page's nor leaves its own behind.
  useEffect(() => {
    setWarnWhen(false);
    return () => setWarnWhen(false);
  }, [setWarnWhen]);

  useEffect(() => {
    if (!warnWhen) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [warnWhen]);

  // Read when a navigation starts, so a save that released the edits just before navigating is not asked about.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirty.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const held = blocker.state === 'blocked' ? blocker : null;
  // One question per hold: texts that change meanwhile (translations reloaded) do not ask it again, which
  // left the first dialog fading out beside the second.
  const ask = useRef({ modal, translate });
  ask.current = { modal, translate };
  useEffect(() => {
    if (!held) return;
    const { modal: dialogs, translate: text } = ask.current;
    // A Back/Forward press is already undone in the address bar; proceed() redoes it, reset() stays.
    const dialog = dialogs.confirm({
      title: text('content.unsaved.title'),
      content: text('content.unsaved.message'),
      okText: text('content.unsaved.discard'),
      cancelText: text('content.unsaved.keep'),
      okButtonProps: { danger: true, 'data-testid': 'unsaved-discard' } as ButtonProps,
      cancelButtonProps: { 'data-testid': 'unsaved-keep' } as ButtonProps,
      onOk: () => {
        dirty.current = false;
        setWarnWhen(false);
        held.proceed();
      },
      onCancel: () => held.reset(),
    });
    return () => dialog.destroy();
  }, [held, setWarnWhen]);

  const release = useCallback(() => {
    dirty.current = false;
    setWarnWhen(false);
  }, [setWarnWhen]);
  const markDirty = useCallback(() => setWarnWhen(true), [setWarnWhen]);
  return { dirty: warnWhen, release, markDirty };
}

/** Ctrl+S (Cmd+S on a Mac) runs `save` instead of the browser's "Save page as". */
export function useSaveShortcut(save: () => void, enabled: boolean): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
