import { describe, expect, it } from 'vitest';
import { createDataProvider, listQueryString, searchFilter, searchOf, toListQuery } from '../../providers/dataProvider.js';
import type { HttpClient, RequestOptions } from '../../providers/http.js';

describe('listQueryString: GET /users query (spec section 7)', () => {
  it('empty -> no query string', () => {
    expect(listQueryString({})).toBe('');
  });

  it('sortField and sortDirection are sent when both are given', () => {
    expect(listQueryString({ sortField: 'email', sortDirection: 'asc' })).toBe('?sortField=email&sortDirection=asc');
  });

  it.each([
    ['only sortField', { sortField: 'email' }],
    ['only sortDirection', { sortDirection: 'desc' }],
    ['an empty sortField', { sortField: '', sortDirection: 'asc' }],
  ])('sorting is omitted with %s', (_label, query) => {
    expect(listQueryString(query)).toBe('');
  });

  it('skip and take are sent when both are integers', () => {
    expect(listQueryString({ skip: 20, take: 10 })).toBe('?skip=20&take=10');
  });

  it('0 is an integer and is kept', () => {
    expect(listQueryString({ skip: 0, take: 10 })).toBe('?skip=0&take=10');
  });

  it.each([
    ['a fractional skip', { skip: 1.5, take: 10 }],
    ['a fractional take', { skip: 0, take: 2.5 }],
    ['a NaN skip', { skip: Number.NaN, take: 10 }],
    ['a NaN take', { skip: 0, take: Number.NaN }],
    ['an infinite take', { skip: 0, take: Number.POSITIVE_INFINITY }],
    ['skip only (take undefined)', { skip: 10 }],
    ['take only (skip undefined)', { take: 10 }],
  ])('paging is omitted with %s', (_label, query) => {
    expect(listQueryString(query)).toBe('');
  });

  it('sorting and paging are combined; invalid paging does not drop the sorting', () => {
    expect(listQueryString({ sortField: 'createdAt', sortDirection: 'desc', skip: 0, take: 25 })).toBe(
      '?sortField=createdAt&sortDirection=desc&skip=0&take=25',
    );
    expect(listQueryString({ sortField: 'createdAt', sortDirection: 'desc', skip: 1.5, take: 25 })).toBe(
      '?sortField=createdAt&sortDirection=desc',
    );
  });

  it('values are URL-encoded', () => {
    expect(listQueryString({ sortField: 'a&b=c', sortDirection: 'asc' })).toBe('?sortField=a%26b%3Dc&sortDirection=asc');
  });

  it('search is sent trimmed and encoded, after sorting and paging', () => {
    expect(listQueryString({ search: '  anna ' })).toBe('?search=anna');
    expect(listQueryString({ sortField: 'email', sortDirection: 'asc', skip: 0, take: 25, search: 'a+b@x&y' })).toBe(
      '?sortField=email&sortDirection=asc&skip=0&take=25&search=a%2Bb%40x%26y',
    );
  });

  it.each([
    ['no search', {}],
    ['an empty search', { search: '' }],
    ['a blank search', { search: '   ' }],
  ])('search is omitted with %s', (_label, query) => {
    expect(listQueryString(query)).toBe('');
  });

  it('search does not change the sorting and paging rules', () => {
    expect(listQueryString({ sortField: 'email', skip: 1.5, take: 10, search: 'jo' })).toBe('?search=jo');
  });
});

describe("the search filter: Refine's filters -> `search`", () => {
  it('searchFilter is a startswith filter on the search field, and searchOf reads it back trimmed', () => {
    expect(searchFilter('jo')).toEqual({ field: 'search', operator: 'startswith', value: 'jo' });
    expect(searchOf([searchFilter(' jo ')])).toBe('jo');
  });

  it.each([
    ['no filters', undefined],
    ['an empty list', []],
    ['another field', [{ field: 'email', operator: 'startswith', value: 'jo' }]],
    ['another operator', [{ field: 'search', operator: 'contains', value: 'jo' }]],
    ['a value that is not text', [{ field: 'search', operator: 'startswith', value: 42 }]],
    ['a conditional filter', [{ operator: 'or', value: [searchFilter('jo')] }]],
  ] as const)('searchOf finds no search in %s', (_label, filters) => {
    expect(searchOf(filters as Parameters<typeof searchOf>[0])).toBe('');
  });
});

describe("toListQuery: Refine's pagination and sorters", () => {
  it('currentPage and pageSize become skip and take', () => {
    expect(toListQuery({ currentPage: 3, pageSize: 10 }, undefined)).toEqual({ skip: 20, take: 10 });
    expect(toListQuery({ currentPage: 1, pageSize: 25, mode: 'server' }, undefined)).toEqual({ skip: 0, take: 25 });
  });

  it("Refine's defaults (page 1, size 10) apply to missing values", () => {
    expect(toListQuery({}, undefined)).toEqual({ skip: 0, take: 10 });
  });

  it.each(['off', 'client'] as const)("mode '%s' sends no paging", (mode) => {
    expect(toListQuery({ currentPage: 3, pageSize: 10, mode }, undefined)).toEqual({});
  });

  it('no pagination sends no paging', () => {
    expect(toListQuery(undefined, undefined)).toEqual({});
  });

  it('the first sorter becomes sortField and sortDirection', () => {
    expect(
      toListQuery(undefined, [
        { field: 'email', order: 'desc' },
        { field: 'createdAt', order: 'asc' },
      ]),
    ).toEqual({ sortField: 'email', sortDirection: 'desc' });
  });

  it('no sorters send no sorting', () => {
    expect(toListQuery(undefined, [])).toEqual({});
  });

  it('the search filter becomes search; other filters are not sent', () => {
    expect(toListQuery({ currentPage: 2, pageSize: 25 }, [{ field: 'email', order: 'asc' }], [searchFilter('anna')])).toEqual({
      sortField: 'email',
      sortDirection: 'asc',
      skip: 25,
      take: 25,
      search: 'anna',
    });
    expect(toListQuery(undefined, undefined, [{ field: 'email', operator: 'eq', value: 'a@b.c' }])).toEqual({});
    expect(toListQuery(undefined, undefined, [searchFilter('  ')])).toEqual({});
  });
});

describe('createDataProvider over the HTTP client', () => {
  function fakeHttp(answer: unknown) {
    const calls: { url: string; options: RequestOptions | undefined }[] = [];
    const http: HttpClient = async <T,>(url: string, options?: RequestOptions): Promise<T> => {
      calls.push({ url, options });
      return answer as T;
    };
    return { http, calls };
  }

  it('getList asks for page 3 of 10 sorted by email asc and returns { data, total }', async () => {
    const rows = [{ id: 'u21' }, { id: 'u22' }];
    const { http, calls } = fakeHttp({ data: rows, total: 42 });
    const provider = createDataProvider(http);
    const result = await provider.getList({
      resource: 'users',
      pagination: { currentPage: 3, pageSize: 10 },
      sorters: [{ field: 'email', order: 'asc' }],
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/users?sortField=email&sortDirection=asc&skip=20&take=10');
    expect(calls[0]?.options?.method ?? 'GET').toBe('GET');
    expect(result).toEqual({ data: rows, total: 42 });
  });

  it('getList sends the search filter as search', async () => {
    const { http, calls } = fakeHttp({ data: [], total: 0 });
    await createDataProvider(http).getList({
      resource: 'users',
      pagination: { currentPage: 1, pageSize: 25 },
      filters: [searchFilter('Müller')],
    });
    expect(calls[0]?.url).toBe('/users?skip=0&take=25&search=M%C3%BCller');
  });

  it('getList without pagination or sorters calls the bare resource path', async () => {
    const { http, calls } = fakeHttp({ data: [], total: 0 });
    await createDataProvider(http).getList({ resource: 'users', pagination: { mode: 'off' } });
    expect(calls[0]?.url).toBe('/users');
  });

  it('update sends PATCH /users/{id} with the body (role change)', async () => {
    const { http, calls } = fakeHttp({ id: 'u1', roles: ['admin'] });
    await createDataProvider(http).update({ resource: 'users', id: 'u1', variables: { roles: ['admin'] } });
    expect(calls).toEqual([{ url: '/users/u1', options: { method: 'PATCH', body: { roles: ['admin'] } } }]);
  });

  it('deleteOne sends DELETE /users/{id} and falls back to { id } for an empty answer', async () => {
    const { http, calls } = fakeHttp(null);
    const result = await createDataProvider(http).deleteOne({ resource: 'users', id: 'u/1' });
    expect(calls).toEqual([{ url: '/users/u%2F1', options: { method: 'DELETE' } }]);
    expect(result).toEqual({ data: { id: 'u/1' } });
  });

  it('custom sends its path under the API base with the method in capitals (the audit trail)', async () => {
    const entries = [{ id: 'a1', action: 'roles.changed' }];
    const { http, calls } = fakeHttp(entries);
    const provider = createDataProvider(http);
    await expect(provider.custom?.({ url: '/users/u1/audit', method: 'get' })).resolves.toEqual({ data: entries });
    await provider.custom?.({ url: '/users/u1', method: 'patch', payload: { roles: ['user'] } });
    expect(calls).toEqual([
      { url: '/users/u1/audit', options: { method: 'GET', body: undefined } },
      { url: '/users/u1', options: { method: 'PATCH', body: { roles: ['user'] } } },
    ]);
  });

  it('custom refuses methods the API has no use for', async () => {
    const { http, calls } = fakeHttp(null);
    await expect(createDataProvider(http).custom?.({ url: '/users', method: 'head' })).rejects.toThrow(/HEAD/);
    expect(calls).toEqual([]);
  });
});
