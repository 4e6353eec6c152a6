import type { ErrorBody } from '../contract/errors.js';
import type { StreamOpening } from './liveProvider.js';
import { createMemoryStorage, createSessionStore, sessionIdOf, writeSessionHint, type SessionStore } from './session.js';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Public calls (sign-in, registration...) go without the bearer token. */
  noAuth?: boolean;
  /** A token to send instead of the stored one: sign-out names the session it ends after clearing it locally. */
  bearer?: string;
  signal?: AbortSignal;
}

/** What a failed call rejects with: the server's body plus the HTTP status. */
export interface ApiError extends ErrorBody {
  statusCode: number;
  /**
   * The call was made for a session the tab no longer holds (signed out, or another session's tokens
   * arrived while it was under way): its refusal says nothing about the session held now (issue 44 item 8).
   */
  otherSession?: true;
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'messageKey' in value && 'statusCode' in value;
}

export type HttpClient = <T>(url: string, options?: RequestOptions) => Promise<T>;

export interface HttpDeps {
  baseUrl: string;
  session: SessionStore;
  /** The current UI language, sent so server texts match the screen. */
  language?: () => string;
  fetch?: typeof fetch;
  /**
   * Renews the session with the offline token (set by the auth provider once it exists). A request the
   * server refuses with SESSION_EXPIRED is sent once more after a successful renewal: the server's clock,
   * not the browser's, decides when a token has expired.
   */
  renewal?: SessionRenewal;
}

export interface SessionRenewal {
  renew: (() => Promise<boolean>) | null;
}

/**
 * The only place that calls fetch (spec section 7): JSON content type; a bearer token unless `noAuth`,
 * and no request at all without one; a `Bearer` response header replaces the stored token; an empty
 * body is null; a non-OK answer rejects with the body and its messageKey (default DEFAULT), which the
 * data provider turns into the translated text Refine's notifications show.
 */
export function createHttpClient(deps: HttpDeps): HttpClient {
  const doFetch = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));

  return async function request<T>(url: string, options: RequestOptions = {}, retried = false): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (deps.language) headers['Accept-Language'] = deps.language();
    let sent: string | null = null;
    if (!options.noAuth) {
      sent = deps.session.getToken();
      if (sent === null) {
        const error: ApiError = { messageKey: 'UNAUTHORIZED', message: 'No session', statusCode: 401 };
        throw error;
      }
      headers.Authorization = `Bearer ${sent}`;
    }
    if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
    // Whether the tab still holds the session this call was made for, once its answer is in.
    const sessionHeld = () => sent !== null && sessionIdOf(deps.session.getToken()) === sessionIdOf(sent);

    let response: Response;
    try {
      response = await doFetch(`${deps.baseUrl}${url}`, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      const error: ApiError = { messageKey: 'DEFAULT', message: 'Network error', statusCode: 0 };
      throw error;
    }

    // A renewed token replaces the stored one only when it renews the session held: a slow answer to a call of
    // the session before (another user signed in meanwhile) must not put that session back (issue 44 item 8).
    const renewed = response.headers.get('Bearer');
    if (renewed && renewed.trim() !== '' && sessionHeld()) deps.session.setToken(renewed);

    const body = await readBody(response);
    if (!response.ok) {
      const errorBody = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody>;
      const messageKey = errorBody.messageKey ?? 'DEFAULT';
      const held = sessionHeld();
      const renew = deps.renewal?.renew;
      if (messageKey === 'SESSION_EXPIRED' && !options.noAuth && !retried && held && renew && (await renew())) {
        return request<T>(url, options, true);
      }
      const error: ApiError = {
        ...errorBody,
        messageKey,
        message: errorBody.message ?? response.statusText,
        statusCode: response.status,
        ...(sent !== null && !held ? { otherSession: true as const } : {}),
      };
      throw error;
    }
    return body as T;
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return null;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The app's instances: one session store, one client. */
export const session: SessionStore = createSessionStore(
  typeof localStorage === 'undefined' ? createMemoryStorage() : localStorage,
  writeSessionHint,
  // Issue 47: a tab that is a read-only view of a customer's account keeps its session to itself.
  typeof sessionStorage === 'undefined' ? null : sessionStorage,
);
/** Filled in by providers/index.ts with the auth provider's renewal. */
export const sessionRenewal: SessionRenewal = { renew: null };
export const http: HttpClient = createHttpClient({
  baseUrl: '/api',
  session,
  renewal: sessionRenewal,
  language: () => (typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en'),
});

/**
 * A long-lived response body from the API (the server-sent-event stream of `GET /api/events`), with the
 * session's bearer token in the header rather than the address, under the one client's rules: no request
 * without a session ('no-session'), and a token the server's clock finds expired renewed once and asked with
 * again. A session the server refuses is 'refused' (providers/liveProvider.ts asks no more, issue 48 item 10);
 * any other failure rejects (the stream is asked again later).
 */
export async function openStream(url: string, signal: AbortSignal, renewed = false): Promise<StreamOpening> {
  const token = session.getToken();
  if (token === null) return 'no-session';
  const response = await globalThis.fetch(`/api${url}`, { headers: { Authorization: `Bearer ${token}` }, signal });
  if (response.status === 401) {
    const { messageKey } = ((await readBody(response)) ?? {}) as Partial<ErrorBody>;
    // A refusal of a session the tab no longer holds (its tokens were replaced meanwhile) says nothing of the one it holds now.
    if (sessionIdOf(session.getToken()) !== sessionIdOf(token)) throw new Error(`stream ${url}: asked for another session`);
    const renew = sessionRenewal.renew;
    if (messageKey === 'SESSION_EXPIRED' && !renewed && renew && (await renew())) return openStream(url, signal, true);
    return 'refused';
  }
  if (!response.ok || !response.body) throw new Error(`stream ${url}: ${response.status}`);
  return response.body;
}
