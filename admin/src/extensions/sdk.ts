import * as antd from 'antd';
import React, { useCallback, useEffect, useState } from 'react';
import { InterfaceFor } from '../content/interfaces/index.tsx';
import { useSchema } from '../content/schema/schema-context.tsx';
import { apiData, apiRequest, type QueryValue } from '../providers/http-client.ts';
import { resourcePath } from '../providers/resource-paths.ts';

/** Items of a collection read as the signed-in user, re-read by `refresh()`. */
function useItems<T = Record<string, unknown>>(collection: string, query: Record<string, QueryValue> = {}) {
  const [state, setState] = useState<{ items: T[]; loading: boolean; error: string | null }>({ items: [], loading: true, error: null });
  const key = JSON.stringify(query);
  const refresh = useCallback(() => {
    setState((previous) => ({ ...previous, loading: true }));
    apiData<T[]>(resourcePath(collection), { query: JSON.parse(key) as Record<string, QueryValue> }).then(
      (items) => setState({ items: items ?? [], loading: false, error: null }),
      (error: { message?: string }) => setState({ items: [], loading: false, error: error.message ?? 'The items could not be read.' }),
    );
  }, [collection, key]);
  useEffect(refresh, [refresh]);
  return { ...state, refresh };
}

/** A collection's metadata and fields, from the schema the admin already holds. */
function useCollection(name: string) {
  const schema = useSchema();
  return { collection: schema.collection(name) ?? null, fields: schema.fieldsOf(name) };
}

/** The API with the signed-in user's session: `request` answers the whole body, `data` its `data`. */
function useApi() {
  return { request: apiRequest, data: apiData };
}

/**
 * What an admin extension's module is handed: the admin's own React and antd (so an extension bundles
 * neither, and its components share the admin's hooks, theme and locale), and Tessera's small SDK.
 */
export const extensionHost = Object.freeze({
  React,
  antd,
  sdk: Object.freeze({ useApi, useItems, useCollection, InterfaceFor, api: { request: apiRequest, data: apiData } }),
});
export type ExtensionHost = typeof extensionHost;
