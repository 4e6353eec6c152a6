import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, type ApiError, type RequestOptions } from '../../providers/http.js';
import { createSessionStore, type SessionStore, TOKEN_KEY } from '../../providers/session.js';
import { jwt, memoryStorage } from './fakes.js';

interface Call {
  url: string;
  init: RequestInit;
}

interface FakeAnswer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A fetch that records every call and answers with the given Response each time. */
function fakeFetch(answer: FakeAnswer | (() => never) = {}) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), init: init ?? {} });
    if (typeof answer === 'function') return answer();
    return new Response(answer.body ?? '', {
      status: answer.status ?? 200,
      statusText: answer.status && answer.status >= 400 ? 'Failure' : 'OK',
      headers: answer.headers ?? {},
    });
  });
  return { fetch: fn as typeof fetch, fn, calls };
}

const JSON_TYPE = { 'content-type': 'application/json' };

function setup(answer: FakeAnswer | (() => never) = {}, token: string | null = 'stored-token') {
  const storage = memoryStorage(token === null ? {} : { [TOKEN_KEY]: token });
  const session: SessionStore = createSessionStore(storage);
  const fake = fakeFetch(answer);
  const http = createHttpClient({ baseUrl: 'https://api.test', session, fetch: fake.fetch });
  return { http, session, ...fake };
}

function onlyCall(calls: Call[]): Call {
  expect(calls).toHaveLength(1);
  const [call] = calls;
  if (!call) throw new Error('no call recorded');
  return call;
}

function header(call: Call, name: string): string | null {
  return new Headers(call.init.headers).get(name);
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the request to reject');
}

describe('HTTP client: requests (spec section 7)', () => {
  it('every request carries Content-Type application/json', async () => {
    const { http, calls } = setup({ body: '{}', headers: JSON_TYPE });
    await http('/users/me');
    await http('/auth/login', { method: 'POST', noAuth: true, body: { email: 'a@b.co' } });
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(header(call, 'Content-Type')).toBe('application/json');
  });

  it('a call given only a URL is a GET to the backend API base', async () => {
    const { http, calls } = setup();
    await http('/users/me');
    const call = onlyCall(calls);
    expect(call.url).toBe('https://api.test/users/me');
    expect(call.init.method).toBe('GET');
    expect(call.init.body).toBeUndefined();
  });

  it('the given method is used', async () => {
    const { http, calls } = setup();
    await http('/users/42', { method: 'DELETE' });
    expect(onlyCall(calls).init.method).toBe('DELETE');
  });

  it('a bearer token is added to calls not marked no auth', async () => {
    const { http, calls } = setup();
    await http('/users/me');
    expect(header(onlyCall(calls), 'Authorization')).toBe('Bearer stored-token');
  });

  it('a call marked no auth goes without the bearer token', async () => {
    const { http, calls } = setup();
    await http('/auth/login', { method: 'POST', noAuth: true, body: {} });
    expect(header(onlyCall(calls), 'Authorization')).toBeNull();
  });

  it('a call marked no auth is sent even without a session', async () => {
    const { http, calls } = setup({}, null);
    await http('/auth/login', { method: 'POST', noAuth: true, body: {} });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['no token', null],
    ['a blank token', '   '],
  ])('with %s available the request is rejected with UNAUTHORIZED and fetch is not called', async (_label, token) => {
    const { http, fn } = setup({}, token);
    const error = await rejection(http('/users/me'));
    expect(error.messageKey).toBe('UNAUTHORIZED');
    expect(error.statusCode).toBe(401);
    expect(fn).not.toHaveBeenCalled();
  });

  it('the current UI language is sent as Accept-Language so server texts match the screen', async () => {
    const storage = memoryStorage({ [TOKEN_KEY]: 'stored-token' });
    const fake = fakeFetch();
    const http = createHttpClient({
      baseUrl: '',
      session: createSessionStore(storage),
      language: () => 'de',
      fetch: fake.fetch,
    });
    await http('/users/me');
    expect(header(onlyCall(fake.calls), 'Accept-Language')).toBe('de');
  });

  it('the body is JSON-stringified', async () => {
    const { http, calls } = setup();
    const body = { email: 'a@b.co', rememberMe: true, nested: { list: [1, 2] } };
    await http('/auth/login', { method: 'POST', noAuth: true, body });
    const sent = onlyCall(calls).init.body;
    expect(sent).toBe(JSON.stringify(body));
  });

  it('an empty object body is still sent as "{}"', async () => {
    const { http, calls } = setup();
    await http('/users/downloadedShapelab', { method: 'POST', body: {} });
    expect(onlyCall(calls).init.body).toBe('{}');
  });
});

describe('HTTP client: answers (spec section 7)', () => {
  it('an empty body (length 0) is returned as null', async () => {
    const { http } = setup({ body: '', headers: JSON_TYPE });
    await expect(http('/users/me')).resolves.toBeNull();
  });

  it('an empty body without a content type is returned as null too', async () => {
    const { http } = setup({ body: '' });
    await expect(http('/users/me')).resolves.toBeNull();
  });

  it('a JSON body is parsed', async () => {
    const { http } = setup({ body: '{"id":"u1","roles":["admin"]}', headers: JSON_TYPE });
    await expect(http('/users/me')).resolves.toEqual({ id: 'u1', roles: ['admin'] });
  });

  it('a JSON body with a charset in the content type is parsed', async () => {
    const { http } = setup({ body: '[1,2]', headers: { 'content-type': 'application/json; charset=utf-8' } });
    await expect(http('/x')).resolves.toEqual([1, 2]);
  });

  it('a non-JSON content type returns the text', async () => {
    const { http } = setup({ body: 'DISCOUNT-42', headers: { 'content-type': 'text/plain' } });
    await expect(http('/perpetual/discount-object-by-code/?discountCode=X', { noAuth: true })).resolves.toBe(
      'DISCOUNT-42',
    );
  });

  it('a non-JSON content type returns JSON-looking text unparsed', async () => {
    const { http } = setup({ body: '{"a":1}', headers: { 'content-type': 'text/plain' } });
    await expect(http('/x')).resolves.toBe('{"a":1}');
  });

  it('a response header named Bearer replaces the stored token', async () => {
    const { http, session } = setup({ body: '{}', headers: { ...JSON_TYPE, Bearer: 'renewed-token' } });
    await http('/users/me');
    expect(session.getToken()).toBe('renewed-token');
  });

  it('the Bearer header replaces the stored token on error responses too', async () => {
    const { http, session } = setup({
      status: 403,
      body: '{"messageKey":"FORBIDDEN","message":"no"}',
      headers: { ...JSON_TYPE, Bearer: 'renewed-on-error' },
    });
    await rejection(http('/users'));
    expect(session.getToken()).toBe('renewed-on-error');
  });

  it('without a Bearer header the stored token is kept', async () => {
    const { http, session } = setup({ body: '{}', headers: JSON_TYPE });
    await http('/users/me');
    expect(session.getToken()).toBe('stored-token');
  });

  it('a non-OK response rejects with the body plus statusCode', async () => {
    const { http } = setup({
      status: 400,
      body: '{"messageKey":"WRONG_CREDENTIALS","message":"Email or password is incorrect.","field":"email"}',
      headers: JSON_TYPE,
    });
    const error = await rejection(http('/auth/login', { method: 'POST', noAuth: true, body: {} }));
    expect(error).toEqual({
      messageKey: 'WRONG_CREDENTIALS',
      message: 'Email or password is incorrect.',
      field: 'email',
      statusCode: 400,
    });
  });

  it('a non-OK response without messageKey rejects with DEFAULT', async () => {
    const { http } = setup({ status: 500, body: '{"oops":true}', headers: JSON_TYPE });
    const error = await rejection(http('/users/me'));
    expect(error.messageKey).toBe('DEFAULT');
    expect(error.statusCode).toBe(500);
  });

  it('a non-OK response with an empty or text body rejects with DEFAULT', async () => {
    const { http } = setup({ status: 502, body: 'Bad gateway', headers: { 'content-type': 'text/html' } });
    const error = await rejection(http('/users/me'));
    expect(error.messageKey).toBe('DEFAULT');
    expect(error.statusCode).toBe(502);
  });

  it('a network failure rejects with DEFAULT', async () => {
    const { http } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await rejection(http('/users/me'));
    expect(error.messageKey).toBe('DEFAULT');
  });

  it('an aborted request is passed through as it is', async () => {
    const { http } = setup(() => {
      throw new DOMException('aborted', 'AbortError');
    });
    const controller = new AbortController();
    const options: RequestOptions = { signal: controller.signal };
    await expect(http('/users/me', options)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a session the server says has expired', () => {
  function expiringServer(renewed: boolean) {
    const storage = memoryStorage({ [TOKEN_KEY]: 'old-token' });
    const session = createSessionStore(storage);
    const seen: (string | null)[] = [];
    const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get('Authorization');
      seen.push(auth);
      if (auth === 'Bearer new-token') return new Response('{"ok":true}', { status: 200, headers: JSON_TYPE });
      return new Response('{"messageKey":"SESSION_EXPIRED","message":"Your session has expired."}', { status: 401, headers: JSON_TYPE });
    }) as typeof fetch;
    const renew = vi.fn(async () => {
      if (renewed) session.setToken('new-token');
      return renewed;
    });
    const http = createHttpClient({ baseUrl: 'https://api.test', session, fetch: fetchFn, renewal: { renew } });
    return { http, renew, seen };
  }

  it('is renewed with the offline token and the request is sent again, once', async () => {
    const { http, renew, seen } = expiringServer(true);
    await expect(http('/users/me')).resolves.toEqual({ ok: true });
    expect(renew).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['Bearer old-token', 'Bearer new-token']);
  });

  it('fails with SESSION_EXPIRED when renewal is not possible', async () => {
    const { http, renew, seen } = expiringServer(false);
    await expect(http('/users/me')).rejects.toMatchObject({ messageKey: 'SESSION_EXPIRED', statusCode: 401 });
    expect(renew).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
  });
});

describe('an answer to a call of a session the tab no longer holds (issue 44 item 8)', () => {
  const A = jwt(2_000_000_000, { sid: 'session-a', sub: 'user-a' });
  const A_RENEWED = jwt(2_000_003_600, { sid: 'session-a', sub: 'user-a' });
  const B = jwt(2_000_000_000, { sid: 'session-b', sub: 'user-b' });

  /** A server that answers once the test lets it, after the tab's tokens may have changed meanwhile. */
  function slowServer(answer: FakeAnswer) {
    const storage = memoryStorage({ [TOKEN_KEY]: A });
    const session = createSessionStore(storage);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchFn = (async () => {
      await released;
      return new Response(answer.body ?? '', { status: answer.status ?? 200, headers: answer.headers ?? {} });
    }) as typeof fetch;
    const renew = vi.fn(async () => true);
    const http = createHttpClient({ baseUrl: 'https://api.test', session, fetch: fetchFn, renewal: { renew } });
    return { http, session, release, renew };
  }

  it("a renewed token for the session before does not replace the next session's", async () => {
    const { http, session, release } = slowServer({ body: '{}', headers: { ...JSON_TYPE, Bearer: A_RENEWED } });
    const answer = http('/users/me/overview');
    session.setToken(B);
    release();
    await answer;
    expect(session.getToken()).toBe(B);
  });

  it("a renewed token of the session held replaces it (a renewal keeps the session's `sid`)", async () => {
    const { http, session, release } = slowServer({ body: '{}', headers: { ...JSON_TYPE, Bearer: A_RENEWED } });
    const answer = http('/users/me/overview');
    release();
    await answer;
    expect(session.getToken()).toBe(A_RENEWED);
  });

  it('its refusal is marked as of another session, so it ends nothing of the session held', async () => {
    const { http, session, release } = slowServer({ status: 401, body: '{"messageKey":"UNAUTHORIZED"}', headers: JSON_TYPE });
    const answer = rejection(http('/users/me/overview'));
    session.setToken(B);
    release();
    await expect(answer).resolves.toMatchObject({ statusCode: 401, otherSession: true });
  });

  it('a refusal after a sign-out (no token at all) is of another session too', async () => {
    const { http, session, release } = slowServer({ status: 401, body: '{"messageKey":"UNAUTHORIZED"}', headers: JSON_TYPE });
    const answer = rejection(http('/users/me/overview'));
    session.clear();
    release();
    await expect(answer).resolves.toMatchObject({ otherSession: true });
  });

  it("a refusal of the session held is not marked", async () => {
    const { http, release } = slowServer({ status: 401, body: '{"messageKey":"UNAUTHORIZED"}', headers: JSON_TYPE });
    const answer = rejection(http('/users/me/overview'));
    release();
    expect(await answer).not.toHaveProperty('otherSession');
  });

  it('SESSION_EXPIRED of the session before renews nothing: the renewal would be of the session held', async () => {
    const { http, session, release, renew } = slowServer({ status: 401, body: '{"messageKey":"SESSION_EXPIRED"}', headers: JSON_TYPE });
    const answer = rejection(http('/users/me/overview'));
    session.setToken(B);
    release();
    await expect(answer).resolves.toMatchObject({ messageKey: 'SESSION_EXPIRED', otherSession: true });
    expect(renew).not.toHaveBeenCalled();
  });
});

describe('openStream: the event stream under the one client’s rules (issue 48 item 10)', () => {
  const body = (messageKey: string) => JSON.stringify({ messageKey, message: messageKey });

  async function opened(answers: { status: number; body?: string }[], token: string | null, renewal: boolean | null) {
    const { openStream, session, sessionRenewal } = await import('../../providers/http.js');
    localStorage.clear();
    if (token !== null) session.setToken(token);
    const calls: (string | null)[] = [];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      calls.push(new Headers(init?.headers).get('Authorization'));
      const answer = answers.shift() ?? { status: 200, body: ': connected\n\n' };
      return new Response(answer.body ?? '', { status: answer.status, headers: answer.status === 200 ? {} : JSON_TYPE });
    });
    const renew = vi.fn(async () => {
      if (renewal) session.setToken('renewed-token');
      return renewal === true;
    });
    sessionRenewal.renew = renewal === null ? null : renew;
    try {
      const outcome = await openStream('/events', new AbortController().signal);
      return { outcome: typeof outcome === 'string' ? outcome : 'open', calls, renewals: renew.mock.calls.length };
    } finally {
      fetch.mockRestore();
      sessionRenewal.renew = null;
      localStorage.clear();
    }
  }

  it('asks nothing without a session', async () => {
    expect(await opened([], null, true)).toEqual({ outcome: 'no-session', calls: [], renewals: 0 });
  });

  it('a token the server finds expired is renewed once and the stream asked with the new one', async () => {
    expect(await opened([{ status: 401, body: body('SESSION_EXPIRED') }], 'old-token', true)).toEqual({
      outcome: 'open',
      calls: ['Bearer old-token', 'Bearer renewed-token'],
      renewals: 1,
    });
  });

  it('a session the server refuses, and cannot be renewed, is refused: asked once', async () => {
    expect(await opened([{ status: 401, body: body('SESSION_EXPIRED') }], 'ended-token', false)).toEqual({ outcome: 'refused', calls: ['Bearer ended-token'], renewals: 1 });
    expect(await opened([{ status: 401, body: body('UNAUTHORIZED') }], 'bad-token', true)).toEqual({ outcome: 'refused', calls: ['Bearer bad-token'], renewals: 0 });
  });

  it('renewed and refused again, it is refused (one renewal per opening)', async () => {
    const refusals = [{ status: 401, body: body('SESSION_EXPIRED') }, { status: 401, body: body('SESSION_EXPIRED') }];
    expect(await opened(refusals, 'old-token', true)).toEqual({ outcome: 'refused', calls: ['Bearer old-token', 'Bearer renewed-token'], renewals: 1 });
  });

  it('any other failure rejects, to be asked again later', async () => {
    await expect(opened([{ status: 503, body: body('TOO_MANY_STREAMS') }], 'token', true)).rejects.toThrow('503');
  });
});
