import type { FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';

type Item = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Brings another user's save into an open form without losing this user's unsaved edits. `merge()` notes
 * the fields edited here (form value ≠ the item as loaded), then re-reads the item; the form is reset to
 * what was saved (Refine's useForm does that on every read), and the noted edits are put back once the
 * new item is in. An edited field whose saved value changed to something else is a conflict: this user's
 * value stays and the field says so until the next save, which names the version the edits were made on
 * (`onConflictsFrom`), so the server refuses it with 412 and the etag merge dialog settles it. A `save`
 * of the form's own (`busy`) is not merged: the read after the save brings it in.
 * Call the hook after useForm: its effect must run after the form's reset.
 */
export function useLiveMerge(
  form: FormInstance | undefined,
  item: Item | null,
  refetch: () => Promise<Item | null | undefined>,
  own: { busy: () => boolean; version: string | null; onConflictsFrom: (base: string) => void },
): { merge: () => void; conflicts: ReadonlySet<string> } {
  const [conflicts, setConflicts] = useState<ReadonlySet<string>>(new Set());
  const pending = useRef<{ base: Item; edits: Item; version: string | null } | null>(null);
  const latest = useRef({ form, item, refetch, own });
  latest.current = { form, item, refetch, own };

  useEffect(() => {
    const waiting = pending.current;
    if (!waiting || !form) {
      // A read of this user's own (after a save): marks from before are settled.
      if (!waiting) setConflicts((current) => (current.size === 0 ? current : new Set()));
      return;
    }
    pending.current = null;
    if (!item) return;
    form.setFieldsValue(waiting.edits);
    const clashing = Object.entries(waiting.edits).filter(([field, mine]) => !same(item[field], waiting.base[field]) && !same(item[field], mine)).map(([field]) => field);
    setConflicts((current) => new Set([...current, ...clashing]));
    if (clashing.length > 0 && waiting.version) latest.current.own.onConflictsFrom(waiting.version);
  }, [item, form]);

  const merge = useCallback(() => {
    const { form: current, item: base, refetch: read, own: mine } = latest.current;
    // This form's own save: the read after it brings it in, and its edits are saved, not to be put back.
    if (!current || !base || mine.busy()) return;
    const values = current.getFieldsValue(true) as Item;
    const edits = Object.fromEntries(Object.entries(values).filter(([field, value]) => field in base && !same(value, base[field])));
    const waiting = { base, edits, version: mine.version };
    pending.current = waiting;
    // An unchanged item keeps its reference (no reset, no effect): nothing to put back then.
    const settle = (fresh: Item | null | undefined) => {
      if (pending.current === waiting && (!fresh || same(fresh, base))) pending.current = null;
    };
    read().then(settle, () => settle(null));
  }, []);

  return { merge, conflicts };
}
