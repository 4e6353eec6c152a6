import type { BaseRecord, CrudFilter, CrudSort, CustomParams, DataProvider, LogicalFilter, Pagination } from '@refinedev/core';
import { ACCOUNT_RESOURCES } from './accountResources.js';
import { isApiError, type ApiError, type HttpClient, type RequestOptions } from './http.js';

export interface ListQuery {
  sortField?: string;
  sortDirection?: string;
  skip?: number;
  take?: number;
  /** Text the list's records start with (the users list: email, first name or last name). */
  search?: string;
  /** A list's filters as the API names them (the users list: verified=true, plan=trial...), sent as they are. */
  filters?: [string, string][];
}

/**
 * A list's text search as a Refine filter. The API matches the start of the searched columns, so the
 * filter says `startswith`. Besides it, a list is sent only the `eq` filters it takes (LIST_FILTERS).
 */
export const SEARCH_FILTER_FIELD = 'search';
export function searchFilter(text: string): LogicalFilter {
  return { field: SEARCH_FILTER_FIELD, operator: 'startswith', value: text };
}

/**
 * The `eq` filters each list endpoint takes as query parameters of their own (GET /users: issue 21's
 * grid filters, contract/users.ts userFiltersSchema); a list not named here is sent none.
 */
export const LIST_FILTERS: Readonly<Record<string, readonly string[]>> = {
  users: ['verified', 'admin', 'newsletter', 'signIn', 'plan'],
};

/** The `eq` filters among `filters` that a list takes (`allowed`, see LIST_FILTERS) as [field, value] pairs, in their order. */
export function equalsOf(filters: readonly CrudFilter[] | undefined, allowed: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const filter of filters ?? []) if ('field' in filter && filter.operator === 'eq' && allowed.includes(filter.field)) pairs.push([filter.field, String(filter.value)]);
  return pairs;
}

/** The text of the search filter among `filters`, or '' when there is none. */
export function searchOf(filters: readonly CrudFilter[] | undefined): string {
  const found = filters?.find(
    (filter): filter is LogicalFilter => 'field' in filter && filter.field === SEARCH_FILTER_FIELD && filter.operator === 'startswith',
  );
  return typeof found?.value === 'string' ? found.value.trim() : '';
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
  const search = query.search?.trim();
  if (search) params.set('search', search);
  for (const [field, value] of query.filters ?? []) params.set(field, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Refine's pagination, sorters, search filter and the list's `eq` filters (`allowed`, see LIST_FILTERS) as the API's list query. */
export function toListQuery(pagination: Pagination | undefined, sorters: CrudSort[] | undefined, filters?: CrudFilter[], allowed: readonly string[] = []): ListQuery {
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
  const search = searchOf(filters);
  if (search) query.search = search;
  const equals = equalsOf(filters, allowed);
  if (equals[0]) query.filters = equals;
  return query;
}

/** The methods the HTTP client sends; Refine's HEAD and OPTIONS have no use here. */
const CUSTOM_METHODS: Partial<Record<CustomParams['method'], RequestOptions['method']>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};

/**
 * A failed call as Refine's HttpError: the API's body and status, with `message` the translated text
 * of its messageKey, so Refine's notifications (and a page's inline error) show the user's language.
 */
export type DataError = ApiError & { message: string };
function translated(error: unknown, translate: (key: string) => string): unknown {
  if (!isApiError(error)) return error;
  return { ...error, message: translate(error.messageKey) } satisfies DataError;
}

export interface DataProviderDeps {
  /** A messageKey's text in the screen's language. */
  translate?: (messageKey: string) => string;
}

/** Resources over the API: `{ data, total }` lists and REST paths per record (spec section 7), or the account paths above. */
export function createDataProvider(http: HttpClient, deps: DataProviderDeps = {}): DataProvider {
  const translate = deps.translate ?? ((messageKey: string) => messageKey);
  const call = async <T>(url: string, options?: RequestOptions): Promise<T> => {
    try {
      return await http<T>(url, options);
    } catch (error) {
      throw translated(error, translate);
    }
  };
  const itemPath = (resource: string, id: BaseRecord['id']) =>
    ACCOUNT_RESOURCES[resource]?.item?.(String(id)) ?? `/${resource}/${encodeURIComponent(String(id))}`;

  return {
    getApiUrl: () => '/api',
    async getList<TData extends BaseRecord = BaseRecord>({ resource, pagination, sorters, filters }: Parameters<DataProvider['getList']>[0]) {
      const listPath = ACCOUNT_RESOURCES[resource]?.list;
      if (listPath) {
        const data = (await call<TData[] | null>(listPath)) ?? [];
        return { data, total: data.length };
      }
      const body = await call<{ data: TData[]; total: number }>(`/${resource}${listQueryString(toListQuery(pagination, sorters, filters, LIST_FILTERS[resource]))}`);
      return { data: body.data, total: body.total };
    },
    async getOne<TData extends BaseRecord = BaseRecord>({ resource, id }: Parameters<DataProvider['getOne']>[0]) {
      const onePath = ACCOUNT_RESOURCES[resource]?.one;
      return { data: await call<TData>(onePath ?? itemPath(resource, id)) };
    },
    async create<TData extends BaseRecord = BaseRecord>({ resource, variables }: Parameters<DataProvider['create']>[0]) {
      return { data: await call<TData>(ACCOUNT_RESOURCES[resource]?.list ?? `/${resource}`, { method: 'POST', body: variables }) };
    },
    async update<TData extends BaseRecord = BaseRecord>({ resource, id, variables }: Parameters<DataProvider['update']>[0]) {
      const account = ACCOUNT_RESOURCES[resource];
      const url = account?.one ?? itemPath(resource, id);
      return { data: await call<TData>(url, { method: account?.update ?? 'PATCH', body: variables }) };
    },
    /** A removal that needs proof (a passkey: the password or a code, issue 44) sends it as the body. */
    async deleteOne<TData extends BaseRecord = BaseRecord>({ resource, id, variables }: Parameters<DataProvider['deleteOne']>[0]) {
      const body = typeof variables === 'object' && variables !== null && Object.keys(variables).length > 0 ? { body: variables } : {};
      const data = await call<TData | null>(itemPath(resource, id), { method: 'DELETE', ...body });
      return { data: (data ?? { id }) as TData };
    },
    /** `useCustom` and `useCustomMutation`: `url` is a path under the API base, like every other call here. */
    async custom<TData extends BaseRecord = BaseRecord>({ url, method, payload }: CustomParams) {
      const httpMethod = CUSTOM_METHODS[method];
      if (!httpMethod) throw new Error(`The API takes no ${method.toUpperCase()} requests`);
      return { data: await call<TData>(url, { method: httpMethod, body: payload }) };
    },
  };
}
