import { describe, expect, it } from 'vitest';
import { USER_SORT_FIELDS } from '../../contract/users.js';
import { changeUsersView, DEFAULT_VIEW, readUsersView, writeUsersView, type UsersView } from '../../src/pages/admin/users/view.js';

const read = (query: string) => readUsersView(new URLSearchParams(query));
const write = (view: UsersView, query = '') => writeUsersView(new URLSearchParams(query), view).toString();

describe('the admin users view in the address (reload and shared links)', () => {
  it('the plain address is the default view: first page of 25, server order, no search', () => {
    expect(read('')).toEqual({ page: 1, pageSize: 25, sort: null, search: '' });
    expect(write(DEFAULT_VIEW)).toBe('');
  });

  it('page, page size, sort and search are written and read back', () => {
    const view: UsersView = { page: 3, pageSize: 50, sort: { field: 'lastLaunchedAt', order: 'desc' }, search: 'anna' };
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
  const onPage4: UsersView = { page: 4, pageSize: 25, sort: { field: 'email', order: 'asc' }, search: 'jo' };

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
