import { MAX_PAGE_SIZE, USER_SORT_FIELDS, type UserSortField } from '../../../../contract/users.js';

/**
 * What the admin users list shows (page, page size, sort, search), kept in the address so a reload or a
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
}

/** The MIT DataGrid pages at most 100 rows, as the API does (MAX_PAGE_SIZE). */
export const PAGE_SIZES = [10, 25, 50, MAX_PAGE_SIZE] as const;
export const DEFAULT_VIEW: UsersView = { page: 1, pageSize: 25, sort: null, search: '' };
/** The API refuses longer search texts. */
export const SEARCH_MAX_LENGTH = 100;

/** The address's query parameters of the view. */
export const VIEW_PARAMS = { page: 'page', pageSize: 'pageSize', sort: 'sort', order: 'order', search: 'q' } as const;
const PARAMS = VIEW_PARAMS;

function positiveInteger(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 ? value : null;
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
  };
}

/** `params` with the view written into it (other parameters kept); defaults are left out. */
export function writeUsersView(params: URLSearchParams, view: UsersView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of Object.values(PARAMS)) next.delete(name);
  if (view.page !== DEFAULT_VIEW.page) next.set(PARAMS.page, String(view.page));
  if (view.pageSize !== DEFAULT_VIEW.pageSize) next.set(PARAMS.pageSize, String(view.pageSize));
  if (view.sort) {
    next.set(PARAMS.sort, view.sort.field);
    next.set(PARAMS.order, view.sort.order);
  }
  const search = view.search.trim();
  if (search) next.set(PARAMS.search, search);
  return next;
}

/**
 * The next view after a change in the grid: a new sort, search or page size starts again at the first
 * page (the page the admin was on means something else in the new order).
 */
export function changeUsersView(view: UsersView, change: Partial<UsersView>): UsersView {
  const next = { ...view, ...change };
  const sameSort = next.sort?.field === view.sort?.field && next.sort?.order === view.sort?.order;
  const restart = !sameSort || next.search.trim() !== view.search.trim() || next.pageSize !== view.pageSize;
  return restart ? { ...next, page: 1 } : next;
}
