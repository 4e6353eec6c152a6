import type { BaseRecord, CrudSort, DataProvider, Pagination } from '@refinedev/core';
import type { HttpClient } from './http.js';

export interface ListQuery {
  sortField?: string;
  sortDirection?: string;
  skip?: number;
  take?: number;
}

/**
 * The list query rules of spec section 7: sortField and sortDirection are sent only together, skip and
 * take only when both are integers. Returns the query string with its leading '?', or ''.
 */
export function listQueryString(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.sortField && query.sortDirection) {
    params.set('sortField', query.sortField);
    params.set('sortDirection', query.sortDirection);
  }
  if (Number.isInteger(query.skip) && Number.isInteger(query.take)) {
    params.set('skip', String(query.skip));
    params.set('take', String(query.take));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Refine's pagination and sorters as the API's list query. */
export function toListQuery(pagination: Pagination | undefined, sorters: CrudSort[] | undefined): ListQuery {
  const query: ListQuery = {};
  const sorter = sorters?.[0];
  if (sorter) {
    query.sortField = sorter.field;
    query.sortDirection = sorter.order;
  }
  if (pagination && pagination.mode !== 'off' && pagination.mode !== 'client') {
    const currentPage = pagination.currentPage ?? 1;
    const pageSize = pagination.pageSize ?? 10;
    query.skip = (currentPage - 1) * pageSize;
    query.take = pageSize;
  }
  return query;
}

/** Admin resources over the API: `{ data, total }` lists and REST paths per record (spec section 7). */
export function createDataProvider(http: HttpClient): DataProvider {
  return {
    getApiUrl: () => '/api',
    async getList<TData extends BaseRecord = BaseRecord>({ resource, pagination, sorters }: Parameters<DataProvider['getList']>[0]) {
      const body = await http<{ data: TData[]; total: number }>(
        `/${resource}${listQueryString(toListQuery(pagination, sorters))}`,
      );
      return { data: body.data, total: body.total };
    },
    async getOne<TData extends BaseRecord = BaseRecord>({ resource, id }: Parameters<DataProvider['getOne']>[0]) {
      return { data: await http<TData>(`/${resource}/${encodeURIComponent(String(id))}`) };
    },
    async create<TData extends BaseRecord = BaseRecord>({ resource, variables }: Parameters<DataProvider['create']>[0]) {
      return { data: await http<TData>(`/${resource}`, { method: 'POST', body: variables }) };
    },
    async update<TData extends BaseRecord = BaseRecord>({ resource, id, variables }: Parameters<DataProvider['update']>[0]) {
      return {
        data: await http<TData>(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'PATCH', body: variables }),
      };
    },
    async deleteOne<TData extends BaseRecord = BaseRecord>({ resource, id }: Parameters<DataProvider['deleteOne']>[0]) {
      const data = await http<TData | null>(`/${resource}/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
      return { data: (data ?? { id }) as TData };
    },
  };
}
