import type { BaseKey, BaseRecord, DataProvider, MetaQuery } from '@refinedev/core';
import { API_URL, apiData, apiRequest, type QueryValue } from './http-client.ts';
import { mapFilters, mapPagination, mapSorters, type TesseraFilter } from './query-mapping.ts';
import { itemPath, resourcePath } from './resource-paths.ts';
import { rememberVersion } from './item-versions.ts';
import { learnListAnswer, planListQuery } from './list-paging.ts';

/**
 * What `meta` of a Refine call may carry for Tessera:
 * - `fields`: the `fields` parameter (a list or comma list);
 * - `search`: the `search` parameter; `filter`: a raw Tessera filter ANDed with Refine's filters;
 * - `query`: any other parameters (deep, alias …);
 * - `singleton`: the resource is a singleton (`/settings`, a singleton collection): no id in paths;
 * - `primaryKey`: the key field for getMany (default `id`);
 * - `ifMatch`: an update's or delete's If-Match (the ETag the item was read with).
 */
export interface TesseraMeta {
  fields?: string[] | string;
  search?: string;
  filter?: TesseraFilter | null;
  query?: Record<string, QueryValue>;
  singleton?: boolean;
  primaryKey?: string;
  ifMatch?: string;
}

function metaOf(meta: MetaQuery | undefined): TesseraMeta {
  return (meta ?? {}) as TesseraMeta;
}

function readQuery(meta: TesseraMeta): Record<string, QueryValue> {
  return { fields: meta.fields, ...meta.query };
}

/** Query parameters of a list read: Refine's pagination, sorters and filters in Tessera's language. */
export function listQuery(params: Parameters<DataProvider['getList']>[0]): Record<string, QueryValue> {
  const meta = metaOf(params.meta);
  return {
    ...readQuery(meta),
    ...mapPagination(params.pagination),
    sort: mapSorters(params.sorters),
    filter: mapFilters(params.filters, meta.filter),
    search: meta.search,
    meta: 'filter_count',
  };
}

/** The one data provider of the admin: items and system endpoints over the REST API. */
export function createDataProvider(): DataProvider {
  return {
    getApiUrl: () => API_URL,

    async getList({ resource, ...rest }) {
      // The count once per filter, and the next page from the last one's cursor (list-paging.ts).
      const query = listQuery({ resource, ...rest });
      const plan = planListQuery(resource, query);
      const body = await apiRequest<{ data: BaseRecord[]; meta?: { filter_count?: number; next_cursor?: string | null } }>(resourcePath(resource), { query: plan.query });
      learnListAnswer(resource, query, body?.meta);
      const data = body?.data ?? [];
      return { data: data as never, total: body?.meta?.filter_count ?? plan.knownTotal ?? data.length };
    },

    async getMany({ resource, ids, meta }) {
      const options = metaOf(meta);
      const key = options.primaryKey ?? 'id';
      const data = await apiData<BaseRecord[]>(resourcePath(resource), {
        query: { ...readQuery(options), filter: { [key]: { _in: ids } }, limit: -1 },
      });
      return { data: (data ?? []) as never };
    },

    async getOne({ resource, id, meta }) {
      const options = metaOf(meta);
      const path = options.singleton ? resourcePath(resource) : itemPath(resource, id);
      const data = await apiData<BaseRecord>(path, { query: readQuery(options), onHeaders: (headers) => rememberVersion(path, headers) });
      return { data: (data ?? {}) as never };
    },

    async create({ resource, variables, meta }) {
      const data = await apiData<BaseRecord>(resourcePath(resource), { method: 'POST', body: variables, query: readQuery(metaOf(meta)) });
      return { data: (data ?? variables) as never };
    },

    async update({ resource, id, variables, meta }) {
      const options = metaOf(meta);
      const path = options.singleton ? resourcePath(resource) : itemPath(resource, id);
      const headers = options.ifMatch ? { 'If-Match': options.ifMatch } : undefined;
      const data = await apiData<BaseRecord>(path, { method: 'PATCH', body: variables, query: readQuery(options), headers, onHeaders: (answer) => rememberVersion(path, answer) });
      return { data: (data ?? { id, ...(variables as object) }) as never };
    },

    async updateMany({ resource, ids, variables, meta }) {
      const data = await apiData<BaseRecord[]>(resourcePath(resource), { method: 'PATCH', body: { keys: ids, data: variables }, query: readQuery(metaOf(meta)) });
      return { data: (data ?? []) as never };
    },

    async deleteOne({ resource, id }) {
      await apiRequest(itemPath(resource, id), { method: 'DELETE' });
      return { data: { id } as never };
    },

    async deleteMany({ resource, ids }) {
      await apiRequest(resourcePath(resource), { method: 'DELETE', body: ids as BaseKey[] });
      return { data: ids.map((id) => ({ id })) as never };
    },

    async custom({ url, method, payload, query, filters, sorters }) {
      const extra: Record<string, QueryValue> = { ...(query as Record<string, QueryValue> | undefined) };
      const filter = mapFilters(filters);
      if (filter) extra.filter = filter;
      const sort = mapSorters(sorters);
      if (sort) extra.sort = sort;
      const path = url.startsWith(API_URL) ? url.slice(API_URL.length) : url;
      const body = await apiRequest<{ data?: unknown } | null>(path, { method: method.toUpperCase(), body: payload, query: extra });
      return { data: (body && typeof body === 'object' && 'data' in body ? body.data : body) as never };
    },
  };
}
