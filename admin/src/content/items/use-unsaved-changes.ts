import { useTranslate, useWarnAboutChange } from '@refinedev/core';
import { App, type ButtonProps } from 'antd';
import { useCallback, useContext, useEffect, useRef } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';

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
 * reloading the tab asks the browser's question, and in-app navigation (links, menus, back buttons that
 * navigate) asks "Discard changes / Keep editing" first. Browser history buttons are not intercepted:
 * the app runs on a `BrowserRouter`, which cannot block them.
 */
export function useUnsavedChanges(): UnsavedChanges {
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const translate = useTranslate();
  const { modal } = App.useApp();
  const { navigator } = useContext(UNSAFE_NavigationContext);
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

  useEffect(() => {
    if (!warnWhen) return;
    const { push, replace, go } = navigator;
    const ask = (leave: () => void) => {
      if (!dirty.current) return leave();
      modal.confirm({
        title: translate('content.unsaved.title'),
        content: translate('content.unsaved.message'),
        okText: translate('content.unsaved.discard'),
        cancelText: translate('content.unsaved.keep'),
        okButtonProps: { danger: true, 'data-testid': 'unsaved-discard' } as ButtonProps,
        cancelButtonProps: { 'data-testid': 'unsaved-keep' } as ButtonProps,
        onOk: () => {
          dirty.current = false;
          setWarnWhen(false);
          leave();
        },
      });
    };
    navigator.push = (...args: Parameters<typeof push>) => ask(() => push(...args));
    navigator.replace = (...args: Parameters<typeof replace>) => ask(() => replace(...args));
    navigator.go = (...args: Parameters<typeof go>) => ask(() => go(...args));
    return () => {
      navigator.push = push;
      navigator.replace = replace;
      navigator.go = go;
    };
  }, [navigator, warnWhen, modal, translate, setWarnWhen]);

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
