import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useDataGrid } from '@refinedev/mui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminUser } from '../../../../contract/users.js';
import type { CrudFilter } from '@refinedev/core';
import { equalsOf, LIST_FILTERS, searchFilter, searchOf } from '../../../../providers/dataProvider.js';
import { changeUsersView, FILTER_NAMES, filterEntries, isSortField, readUsersView, VIEW_PARAMS, writeUsersView, type UsersView } from './view.js';
import { SEARCH_DELAY_MS } from '../../../components/search.js';

/**
 * Refine copies the address's query parameters into every query's meta, and so into its cache key. The
 * view's parameters reach the query as pagination, sorters and filters already; left in the meta they
 * would make each change of the view fetch twice (once with the old query under a new key).
 */
const VIEW_PARAMS_OUT_OF_META = Object.fromEntries([...Object.values(VIEW_PARAMS), ...FILTER_NAMES].map((name) => [name, undefined]));

/**
 * The view's search and filters as Refine filters: the search's `startswith`, and an `eq` filter per
 * grid filter, which the data provider sends as the API's query parameter of that name (LIST_FILTERS).
 */
export function crudFiltersOf(view: UsersView): CrudFilter[] {
  const equals = filterEntries(view.filters).map(([field, value]): CrudFilter => ({ field, operator: 'eq', value }));
  return [...(view.search ? [searchFilter(view.search)] : []), ...equals];
}
const filtersKey = (filters: readonly CrudFilter[]) => JSON.stringify([searchOf(filters), equalsOf(filters, LIST_FILTERS.users ?? [])]);

/**
 * `GET /users/export`'s query for the view: the same search, filters and order as the grid shows
 * (paging left out: the export holds every match).
 */
export function exportQueryOf(view: UsersView): string {
  const params = new URLSearchParams();
  if (view.sort) {
    params.set('sortField', view.sort.field);
    params.set('sortDirection', view.sort.order);
  }
  if (view.search) params.set('search', view.search);
  for (const [name, value] of filterEntries(view.filters)) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The users list on Refine's useDataGrid (server-side paging, sorting and search through the data
 * provider), with the view kept in the address: the address leads and the table follows. A change in
 * the grid or the search box writes the address; a new address (the grid, a reload, a shared link, the
 * menu link back to the plain list) sets the table's query.
 */
export function useUsersGrid() {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readUsersView(searchParams), [searchParams]);

  const { dataGridProps, tableQuery, currentPage, setCurrentPage, pageSize, setPageSize, sorters, setSorters, filters, setFilters } =
    useDataGrid<AdminUser>({
      resource: 'users',
      // The address is kept by ./view.ts (see there why not Refine's syncWithLocation).
      syncWithLocation: false,
      pagination: { currentPage: view.page, pageSize: view.pageSize },
      sorters: { initial: view.sort ? [view.sort] : [] },
      filters: { initial: crudFiltersOf(view) },
      meta: VIEW_PARAMS_OUT_OF_META,
    });

  useEffect(() => {
    if (currentPage !== view.page) setCurrentPage(view.page);
    if (pageSize !== view.pageSize) setPageSize(view.pageSize);
    const sorter = sorters[0];
    if (sorter?.field !== view.sort?.field || sorter?.order !== view.sort?.order) setSorters(view.sort ? [view.sort] : []);
    const wanted = crudFiltersOf(view);
    if (filtersKey(filters) !== filtersKey(wanted)) setFilters(wanted, 'replace');
  }, [view, currentPage, pageSize, sorters, filters, setCurrentPage, setPageSize, setSorters, setFilters]);

  const show = useCallback(
    (change: Partial<UsersView>) =>
      setSearchParams((current) => writeUsersView(current, changeUsersView(readUsersView(current), change)), { replace: true }),
    [setSearchParams],
  );

  const [searchText, setSearchText] = useState(view.search);
  useEffect(() => {
    const search = searchText.trim();
    if (search === view.search) return;
    // The list still on screen while the next screen loads must not take the address back: a search typed just
    // before a row was opened is dropped once the address has left the list.
    const listPath = window.location.pathname;
    const timer = setTimeout(() => {
      if (window.location.pathname === listPath) show({ search });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, view.search, show]);
  // A search set from outside (a link, the menu back to the plain list) shows in the box.
  useEffect(() => {
    setSearchText((text) => (text.trim() === view.search ? text : view.search));
  }, [view.search]);

  // New models only when the view changes: the grid takes every new sort model for a new sort and goes
  // back to the first page.
  const { page, pageSize: viewPageSize } = view;
  const sortField = view.sort?.field;
  const sortOrder = view.sort?.order;
  const paginationModel = useMemo(() => ({ page: page - 1, pageSize: viewPageSize }), [page, viewPageSize]);
  const sortModel = useMemo<GridSortModel>(() => (sortField && sortOrder ? [{ field: sortField, sort: sortOrder }] : []), [sortField, sortOrder]);

  // The grid filters nothing itself: the search box and the filter bar above it send the list's filters.
  const { filterModel: _filterModel, onFilterModelChange: _onFilterModelChange, ...rest } = dataGridProps;
  const gridProps = {
    ...rest,
    // Refine keeps the last non-zero total while a page loads; a search that finds nobody has a total of 0.
    rowCount: tableQuery.data?.total ?? rest.rowCount,
    paginationModel,
    onPaginationModelChange: (model: GridPaginationModel) => show({ page: model.page + 1, pageSize: model.pageSize }),
    sortModel,
    onSortModelChange: (model: GridSortModel) => {
      const first = model[0];
      show({ sort: first?.sort && isSortField(first.field) ? { field: first.field, order: first.sort } : null });
    },
  };

  return { view, show, gridProps, tableQuery, searchText, setSearchText };
}
