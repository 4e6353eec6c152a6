import { JOB_STATUSES, type JobStatus } from '../../../../contract/jobs-values.js';

/**
 * What the background jobs page shows (status filter, page, page size), kept in the address so a reload
 * or a shared link (`/admin/jobs?status=failed`) shows the same list. Only what differs from the default
 * is written.
 */
export interface JobsView {
  /** null: every status. */
  status: JobStatus | null;
  /** 0-based, as MUI's TablePagination counts. */
  page: number;
  pageSize: number;
}

/** The API takes at most 100 jobs a page (jobsQuerySchema). */
export const JOB_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_JOBS_VIEW: JobsView = { status: null, page: 0, pageSize: 25 };
export const JOBS_VIEW_PARAMS = { status: 'status', page: 'page', pageSize: 'pageSize' } as const;

function isStatus(value: string | null): value is JobStatus {
  return (JOB_STATUSES as readonly (string | null)[]).includes(value);
}

/** The view an address asks for; anything unknown falls back to the default. The address's page is 1-based. */
export function readJobsView(params: URLSearchParams): JobsView {
  const status = params.get(JOBS_VIEW_PARAMS.status);
  const pageText = params.get(JOBS_VIEW_PARAMS.page);
  const page = pageText !== null && /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) - 1 : DEFAULT_JOBS_VIEW.page;
  const size = Number(params.get(JOBS_VIEW_PARAMS.pageSize));
  return {
    status: isStatus(status) ? status : null,
    page,
    pageSize: JOB_PAGE_SIZES.find((candidate) => candidate === size) ?? DEFAULT_JOBS_VIEW.pageSize,
  };
}

/** `params` with the view written into it (other parameters kept); defaults are left out. */
export function writeJobsView(params: URLSearchParams, view: JobsView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of Object.values(JOBS_VIEW_PARAMS)) next.delete(name);
  if (view.status) next.set(JOBS_VIEW_PARAMS.status, view.status);
  if (view.page !== DEFAULT_JOBS_VIEW.page) next.set(JOBS_VIEW_PARAMS.page, String(view.page + 1));
  if (view.pageSize !== DEFAULT_JOBS_VIEW.pageSize) next.set(JOBS_VIEW_PARAMS.pageSize, String(view.pageSize));
  return next;
}

/** The API's query for a view: `/admin/jobs?status&skip&take`. */
export function jobsUrl(view: JobsView): string {
  const params = new URLSearchParams();
  if (view.status) params.set('status', view.status);
  params.set('skip', String(view.page * view.pageSize));
  params.set('take', String(view.pageSize));
  return `/admin/jobs?${params.toString()}`;
}
