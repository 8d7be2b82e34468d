import type { FormInstance } from 'antd';
import { useEffect, useLayoutEffect, useRef } from 'react';

type Item = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Keeps what the user typed while a save was on its way. Refine's useForm resets the form to every read of
 * the item, the read after a save included, so an edit made between Save and that read would silently go.
 * `sending(values)` notes what the save sent and `saved()` that it succeeded; when the next item arrives,
 * the fields whose value now differs from what was sent are noted before the reset (a layout effect runs
 * before useForm's passive one) and put back after it, and `onKept` is told: the form is unsaved again.
 * Call the hook after useForm: its passive effect must run after the form's reset.
 */
export function useEditsDuringSave(form: FormInstance | undefined, item: Item | null, onKept: () => void): { sending(values: Item): void; saved(): void; failed(): void } {
  const sent = useRef<{ values: Item; saved: boolean } | null>(null);
  const kept = useRef<Item | null>(null);
  const latest = useRef(onKept);
  latest.current = onKept;

  useLayoutEffect(() => {
    const save = sent.current;
    if (!save?.saved || !form || !item) return;
    sent.current = null;
    const now = form.getFieldsValue(true) as Item;
    const edits = Object.fromEntries(Object.entries(now).filter(([field, value]) => !same(value, save.values[field])));
    kept.current = Object.keys(edits).length > 0 ? edits : null;
  }, [item, form]);

  useEffect(() => {
    const edits = kept.current;
    if (!edits || !form) return;
    kept.current = null;
    form.setFieldsValue(edits);
    latest.current();
  }, [item, form]);

  return {
    sending: (values) => {
      sent.current = { values: structuredClone(values), saved: false };
    },
    saved: () => {
      if (sent.current) sent.current.saved = true;
    },
    failed: () => {
      sent.current = null;
    },
  };
}
