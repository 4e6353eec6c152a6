import { MAX_PAGE_SIZE, SIGN_IN_METHODS, USER_PLANS, USER_SORT_FIELDS, type UserSortField } from '../../../../contract/users-values.js';

/**
 * The grid's filters (issue 21), named as the API's query parameters (GET /users, GET /users/export) and
 * written into the address under the same names. Built from contract/users-values.ts rather than read from
 * the contract's zod schema, so the grid's chunk does not load zod; tests/unit/usersView.test.ts holds the
 * two together.
 */
export const FILTER_VALUES = {
  verified: ['true', 'false'],
  admin: ['true', 'false'],
  newsletter: ['true', 'false'],
  signIn: SIGN_IN_METHODS,
  plan: USER_PLANS,
} as const;
export type FilterName = keyof typeof FILTER_VALUES;
export type UsersFilters = { [K in FilterName]?: (typeof FILTER_VALUES)[K][number] };
export const FILTER_NAMES = Object.keys(FILTER_VALUES) as FilterName[];

/**
 * What the admin users list shows (page, page size, sort, search, filters), kept in the address so a reload or a
 * shared link shows the same view. Only what differs from the default is written, so the plain
 * `/admin/users` is the first page of everyone in the server's default order. (Refine's own
 * syncWithLocation writes its query unencoded, so a search such as `a+b@` would not survive a reload.)
 */
export interface UsersView {
  /** 1-based. */
  page: number;
  pageSize: number;
  sort: { field: UserSortField; order: 'asc' | 'desc' } | null;
  /** Start of an email, first name or last name; '' for everyone. */
  search: string;
  /** The filters set (issue 21); {} for everyone. */
  filters: UsersFilters;
}

/** The MIT DataGrid pages at most 100 rows, as the API does (MAX_PAGE_SIZE). */
export const PAGE_SIZES = [10, 25, 50, MAX_PAGE_SIZE] as const;
export const DEFAULT_VIEW: UsersView = { page: 1, pageSize: 25, sort: null, search: '', filters: {} };
/**
 * The grid's box, and the room kept for it while its code loads: it scrolls inside itself (issue 20 item 10),
 * and minWidth 0 lets it shrink with the page.
 */
export const GRID_BOX_SX = { height: 'max(420px, calc(100vh - 320px))', width: '100%', minWidth: 0, overflowX: 'auto' } as const;
/** The API refuses longer search texts. */
export const SEARCH_MAX_LENGTH = 100;

/** The address's query parameters of the view (the filters' are their names, FILTER_NAMES). */
export const VIEW_PARAMS = { page: 'page', pageSize: 'pageSize', sort: 'sort', order: 'order', search: 'q' } as const;
const PARAMS = VIEW_PARAMS;

function positiveInteger(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
}

/** The filters an address sets; an unknown value is left out (the API would refuse it). */
export function readFilters(params: URLSearchParams): UsersFilters {
  const filters: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value !== null && (FILTER_VALUES[name] as readonly string[]).includes(value)) filters[name] = value;
  }
  return filters as UsersFilters;
}

/** The filters as query parameters, in a fixed order (for the API and the address alike). */
export function filterEntries(filters: UsersFilters): [FilterName, string][] {
  return FILTER_NAMES.flatMap((name) => {
    const value = filters[name];
    return value ? [[name, value] as [FilterName, string]] : [];
  });
}

/** A column the API sorts by (the grid's data columns are named after them). */
export function isSortField(value: string | null): value is UserSortField {
  return (USER_SORT_FIELDS as readonly (string | null)[]).includes(value);
}

/** The view an address asks for; anything unknown or out of range falls back to the default. */
export function readUsersView(params: URLSearchParams): UsersView {
  const pageSize = positiveInteger(params.get(PARAMS.pageSize));
  const field = params.get(PARAMS.sort);
  const order = params.get(PARAMS.order);
  return {
    page: positiveInteger(params.get(PARAMS.page)) ?? DEFAULT_VIEW.page,
    pageSize: PAGE_SIZES.find((size) => size === pageSize) ?? DEFAULT_VIEW.pageSize,
    sort: isSortField(field) && (order === 'asc' || order === 'desc') ? { field, order } : null,
    search: (params.get(PARAMS.search) ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    filters: readFilters(params),
  };
}

/** `params` with the view written into it (other parameters kept); defaults are left out. */
export function writeUsersView(params: URLSearchParams, view: UsersView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of [...Object.values(PARAMS), ...FILTER_NAMES]) next.delete(name);
  if (view.page !== DEFAULT_VIEW.page) next.set(PARAMS.page, String(view.page));
  if (view.pageSize !== DEFAULT_VIEW.pageSize) next.set(PARAMS.pageSize, String(view.pageSize));
  if (view.sort) {
    next.set(PARAMS.sort, view.sort.field);
    next.set(PARAMS.order, view.sort.order);
  }
  const search = view.search.trim();
  if (search) next.set(PARAMS.search, search);
  for (const [name, value] of filterEntries(view.filters)) next.set(name, value);
  return next;
}

/**
 * The next view after a change in the grid: a new sort, search or page size starts again at the first
 * page (the page the admin was on means something else in the new order).
 */
export function changeUsersView(view: UsersView, change: Partial<UsersView>): UsersView {
  const next = { ...view, ...change };
  const sameSort = next.sort?.field === view.sort?.field && next.sort?.order === view.sort?.order;
  const sameFilters = filterEntries(next.filters).join('&') === filterEntries(view.filters).join('&');
  const restart = !sameSort || !sameFilters || next.search.trim() !== view.search.trim() || next.pageSize !== view.pageSize;
  return restart ? { ...next, page: 1 } : next;
}
