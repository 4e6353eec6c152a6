import { describe, expect, it } from 'vitest';
import { USER_SORT_FIELDS, userFiltersSchema } from '../../contract/users.js';
import { LIST_FILTERS, listQueryString, toListQuery } from '../../providers/dataProvider.js';
import { crudFiltersOf } from '../../src/pages/admin/users/useUsersGrid.js';
import { changeUsersView, DEFAULT_VIEW, FILTER_VALUES, readUsersView, writeUsersView, type UsersView } from '../../src/pages/admin/users/view.js';

const read = (query: string) => readUsersView(new URLSearchParams(query));
const write = (view: UsersView, query = '') => writeUsersView(new URLSearchParams(query), view).toString();

describe('the admin users view in the address (reload and shared links)', () => {
  it('the plain address is the default view: first page of 25, server order, no search', () => {
    expect(read('')).toEqual({ page: 1, pageSize: 25, sort: null, search: '', filters: {} });
    expect(write(DEFAULT_VIEW)).toBe('');
  });

  it('page, page size, sort and search are written and read back', () => {
    const view: UsersView = { page: 3, pageSize: 50, sort: { field: 'lastLaunchedAt', order: 'desc' }, search: 'anna', filters: {} };
    const query = write(view);
    expect(query).toBe('page=3&pageSize=50&sort=lastLaunchedAt&order=desc&q=anna');
    expect(read(query)).toEqual(view);
  });

  it('a search keeps characters that mean something in an address', () => {
    const view: UsersView = { ...DEFAULT_VIEW, search: 'a+b@x&y=1 z' };
    expect(read(write(view))).toEqual(view);
  });

  it.each(USER_SORT_FIELDS)('every sort field of the API is accepted: %s', (field) => {
    expect(read(`sort=${field}&order=asc`).sort).toEqual({ field, order: 'asc' });
  });

  it.each([
    ['a page that is not a positive integer', 'page=0', { page: 1 }],
    ['a fractional page', 'page=2.5', { page: 1 }],
    ['a negative page', 'page=-2', { page: 1 }],
    ['a page size the grid does not offer', 'pageSize=30', { pageSize: 25 }],
    ['a page size over the API maximum', 'pageSize=500', { pageSize: 25 }],
    ['an unknown sort field', 'sort=password_hash&order=asc', { sort: null }],
    ['a sort field without an order', 'sort=email', { sort: null }],
    ['an unknown order', 'sort=email&order=up', { sort: null }],
    ['a blank search', 'q=%20%20', { search: '' }],
  ])('%s falls back to the default', (_label, query, expected) => {
    expect(read(query)).toEqual({ ...DEFAULT_VIEW, ...expected });
  });

  it('a search is trimmed and cut to the 100 characters the API takes', () => {
    expect(read(`q=${encodeURIComponent('  jo ')}`).search).toBe('jo');
    expect(read(`q=${'x'.repeat(150)}`).search).toHaveLength(100);
  });

  it('other parameters of the address are kept; the view replaces its own', () => {
    expect(write({ ...DEFAULT_VIEW, page: 2 }, 'page=5&q=old&utm=mail')).toBe('utm=mail&page=2');
  });
});

describe('changing the view', () => {
  const onPage4: UsersView = { page: 4, pageSize: 25, sort: { field: 'email', order: 'asc' }, search: 'jo', filters: {} };

  it('a new page keeps everything else', () => {
    expect(changeUsersView(onPage4, { page: 5 })).toEqual({ ...onPage4, page: 5 });
  });

  it.each([
    ['a new sort', { sort: { field: 'createdAt', order: 'desc' } as const }],
    ['a new order', { sort: { field: 'email', order: 'desc' } as const }],
    ['no sort', { sort: null }],
    ['a new search', { search: 'jon' }],
    ['a new page size', { pageSize: 100, page: 4 }],
  ])('%s starts again at the first page', (_label, change) => {
    expect(changeUsersView(onPage4, change)).toEqual({ ...onPage4, ...change, page: 1 });
  });

  it('the same search with spaces around it is no new search', () => {
    expect(changeUsersView(onPage4, { search: ' jo ' }).page).toBe(4);
  });
});

describe('the users grid filters (issue 21)', () => {
  it('the grid offers exactly the filters and values the API takes', () => {
    const shape = userFiltersSchema.shape;
    expect(Object.keys(FILTER_VALUES)).toEqual(Object.keys(shape));
    expect(LIST_FILTERS.users).toEqual(Object.keys(shape));
    for (const [name, values] of Object.entries(FILTER_VALUES)) {
      const schema = shape[name as keyof typeof shape].unwrap();
      expect([...values], name).toEqual(schema.options);
    }
  });

  it('filters are written under the API names, read back, and unknown values are dropped', () => {
    const view: UsersView = { ...DEFAULT_VIEW, search: 'ann', filters: { plan: 'trial', verified: 'true', signIn: 'google' } };
    const query = write(view);
    expect(query).toBe('q=ann&verified=true&signIn=google&plan=trial');
    expect(read(query)).toEqual(view);
    expect(read('verified=maybe&plan=gold&admin=false').filters).toEqual({ admin: 'false' });
  });

  it('a new filter starts again at the first page; the same filters keep the page', () => {
    const view: UsersView = { ...DEFAULT_VIEW, page: 4, filters: { admin: 'true' } };
    expect(changeUsersView(view, { filters: { admin: 'true', newsletter: 'false' } }).page).toBe(1);
    expect(changeUsersView(view, { filters: { admin: 'true' } }).page).toBe(4);
  });

  it('the data provider sends the users list its eq filters as the API query, beside the search, and no others', () => {
    const filters = [...crudFiltersOf({ ...DEFAULT_VIEW, search: 'ann', filters: { verified: 'false', plan: 'licence-owner' } }), { field: 'email', operator: 'eq' as const, value: 'a@b.c' }];
    const query = toListQuery({ currentPage: 2, pageSize: 25 }, [], filters, LIST_FILTERS.users);
    expect(listQueryString(query)).toBe('?skip=25&take=25&search=ann&verified=false&plan=licence-owner');
    expect(listQueryString(toListQuery({ currentPage: 1, pageSize: 10 }, [], filters))).toBe('?skip=0&take=10&search=ann');
  });
});
