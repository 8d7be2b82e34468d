import { useGetIdentity } from '@refinedev/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiData, apiRequest } from '../../providers/http-client.ts';
import { pickDefault, toPresetFields, type ListView, type PresetRow } from './list-preset.ts';

const FIELDS = 'id,bookmark,user,role,collection,search,layout,layout_query,layout_options,filter';
/** A view is saved this long after its last change, so typing a search is one write, not one per key. */
const SAVE_DELAY_MS = 800;

/**
 * The list's saved view: the bookmark named in the address when there is one, else the default (the
 * user's own preset, the role's, the global one). Changes are saved to the user's own default preset
 * (created on the first change), never into a role's, a global one or a bookmark.
 */
export function useListPreset(collection: string, bookmark: string | null): { loaded: boolean; preset: PresetRow | null; save(view: ListView): void } {
  const { data: identity, isLoading } = useGetIdentity<Identity>();
  const [state, setState] = useState<{ key: string | null; preset: PresetRow | null }>({ key: null, preset: null });
  // Loaded means loaded for this collection and bookmark, not for the previous ones.
  const key = `${collection}:${bookmark ?? ''}`;
  const own = useRef<PresetRow | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (isLoading) return;
    let cancelled = false;
    const filter = bookmark ? { id: { _eq: bookmark } } : { collection: { _eq: collection }, bookmark: { _null: true } };
    apiData<PresetRow[]>('/presets', { query: { fields: FIELDS, filter, limit: -1 } })
      .catch(() => [] as PresetRow[])
      .then((rows) => {
        if (cancelled) return;
        const list = rows ?? [];
        // A role that may not read its own role row has no role in its identity; the API only answers the
        // caller's own, role and global presets, so a role preset it returns is its role's.
        const role = identity?.role?.id ?? list.find((row) => row.user === null && row.role !== null)?.role ?? null;
        const chosen = bookmark ? (list.find((row) => row.collection === collection) ?? null) : pickDefault(list, identity?.id ?? null, role);
        own.current = bookmark ? null : (list.find((row) => row.bookmark === null && row.user === identity?.id) ?? null);
        setState({ key: `${collection}:${bookmark ?? ''}`, preset: chosen });
      });
    return () => {
      cancelled = true;
    };
  }, [collection, bookmark, isLoading, identity?.id, identity?.role?.id]);

  const pending = useRef<ListView | null>(null);
  const write = useCallback(async () => {
    const view = pending.current;
    pending.current = null;
    if (!view || !identity?.id) return;
    const body = toPresetFields(view);
    try {
      if (own.current) await apiRequest(`/presets/${own.current.id}`, { method: 'PATCH', body, query: { fields: 'id' } });
      else own.current = await apiData<PresetRow>('/presets', { method: 'POST', body: { ...body, collection, user: identity.id }, query: { fields: FIELDS } });
    } catch {
      // A role without preset permissions keeps its view for this visit only.
    }
  }, [collection, identity?.id]);

  const save = useCallback(
    (view: ListView) => {
      if (bookmark || !identity?.id) return;
      pending.current = view;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void write(), SAVE_DELAY_MS);
    },
    [bookmark, identity?.id, write],
  );

  // Leaving the list right after a change still saves it.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      void write();
    },
    [write],
  );
  return { loaded: state.key === key, preset: state.key === key ? state.preset : null, save };
}
