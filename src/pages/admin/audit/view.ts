import { AUDIT_ACTIONS, AUDIT_FILTER_PARAMS, type AuditAction, type AuditFilterParam } from '../../../../contract/audit-values.js';

/**
 * What the audit log page shows (issue 47): its filters (who acted, what, about whom, from and to which day),
 * page and page size, kept in the address so a reload or a link an auditor sends (`/admin/audit?actor=…`)
 * shows the same entries. Only what differs from the default is written.
 */
export interface AuditView {
  filters: Partial<Record<AuditFilterParam, string>>;
  /** 0-based, as MUI's TablePagination counts. */
  page: number;
  pageSize: number;
}

/** The API takes at most 100 entries a page (MAX_AUDIT_PAGE). */
export const AUDIT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_AUDIT_VIEW: AuditView = { filters: {}, page: 0, pageSize: 25 };
const PAGE = 'page';
const PAGE_SIZE = 'pageSize';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isAuditAction(value: string | null | undefined): value is AuditAction {
  return (AUDIT_ACTIONS as readonly (string | null | undefined)[]).includes(value);
}

/** A filter's value as the API takes it, or undefined for one it would refuse (the page then ignores it). */
function accepted(name: AuditFilterParam, value: string | null): string | undefined {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed.length > 254) return undefined;
  if (name === 'action') return isAuditAction(trimmed) ? trimmed : undefined;
  if (name === 'from' || name === 'to') return DAY.test(trimmed) ? trimmed : undefined;
  return trimmed;
}

/** The view an address asks for; anything unknown falls back to the default. The address's page is 1-based. */
export function readAuditView(params: URLSearchParams): AuditView {
  const filters: AuditView['filters'] = {};
  for (const name of AUDIT_FILTER_PARAMS) {
    const value = accepted(name, params.get(name));
    if (value !== undefined) filters[name] = value;
  }
  const pageText = params.get(PAGE);
  const page = pageText !== null && /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) - 1 : DEFAULT_AUDIT_VIEW.page;
  const size = Number(params.get(PAGE_SIZE));
  return { filters, page, pageSize: AUDIT_PAGE_SIZES.find((candidate) => candidate === size) ?? DEFAULT_AUDIT_VIEW.pageSize };
}

/** `params` with the view written into it (other parameters kept); defaults are left out. */
export function writeAuditView(params: URLSearchParams, view: AuditView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of [...AUDIT_FILTER_PARAMS, PAGE, PAGE_SIZE]) next.delete(name);
  for (const name of AUDIT_FILTER_PARAMS) {
    const value = accepted(name, view.filters[name] ?? null);
    if (value !== undefined) next.set(name, value);
  }
  if (view.page !== DEFAULT_AUDIT_VIEW.page) next.set(PAGE, String(view.page + 1));
  if (view.pageSize !== DEFAULT_AUDIT_VIEW.pageSize) next.set(PAGE_SIZE, String(view.pageSize));
  return next;
}

/** The filters as the API's query: `?actor&action&subject&from&to` (the export's), '' without any. */
export function auditFilterQuery(filters: AuditView['filters']): string {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_PARAMS) {
    const value = accepted(name, filters[name] ?? null);
    if (value !== undefined) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API's query for a page of the view: `/admin/audit?…&skip&take`. */
export function auditUrl(view: AuditView): string {
  const params = new URLSearchParams(auditFilterQuery(view.filters));
  params.set('skip', String(view.page * view.pageSize));
  params.set('take', String(view.pageSize));
  return `/admin/audit?${params.toString()}`;
}
