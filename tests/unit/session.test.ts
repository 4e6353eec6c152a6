import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, isBlank, OFFLINE_TOKEN_KEY, TOKEN_KEY } from '../../providers/session.js';
import { hasSessionHint, SESSION_HINT_COOKIE } from '../../contract/session-hint.js';
import { memoryStorage } from './fakes.js';

describe('isBlank: empty, null, undefined or whitespace-only counts as no token (spec section 4)', () => {
  it.each([
    ['empty string', ''],
    ['null', null],
    ['undefined', undefined],
    ['spaces', '   '],
    ['tabs and newlines', '\t\n '],
  ])('%s counts as none', (_label, value) => {
    expect(isBlank(value)).toBe(true);
  });

  it.each([
    ['a number', 42],
    ['a boolean', true],
    ['an object', { token: 'abc' }],
    ['an array', ['abc']],
  ])('a non-string (%s) counts as none', (_label, value) => {
    expect(isBlank(value)).toBe(true);
  });

  it('a string with visible characters is a token', () => {
    expect(isBlank('abc')).toBe(false);
    expect(isBlank('  abc  ')).toBe(false);
  });
});

describe.each([
  ['jsdom localStorage', () => localStorage],
  ['a Map-backed Storage', () => memoryStorage()],
])('createSessionStore over %s', (_label, makeStorage) => {
  let storage: Storage;

  beforeEach(() => {
    storage = makeStorage();
    storage.clear();
  });

  it('keeps the access token and the offline token under their keys', () => {
    const store = createSessionStore(storage);
    store.setToken('access');
    store.setOfflineToken('offline');
    expect(store.getToken()).toBe('access');
    expect(store.getOfflineToken()).toBe('offline');
    expect(storage.getItem(TOKEN_KEY)).toBe('access');
    expect(storage.getItem(OFFLINE_TOKEN_KEY)).toBe('offline');
  });

  it('a missing stored value reads as null', () => {
    const store = createSessionStore(storage);
    expect(store.getToken()).toBeNull();
    expect(store.getOfflineToken()).toBeNull();
  });

  it.each(['', '   ', '\t'])('a blank stored value (%j) reads as null', (blank) => {
    storage.setItem(TOKEN_KEY, blank);
    storage.setItem(OFFLINE_TOKEN_KEY, blank);
    const store = createSessionStore(storage);
    expect(store.getToken()).toBeNull();
    expect(store.getOfflineToken()).toBeNull();
  });

  it.each([null, '', '  '])('setOfflineToken(%j) removes the stored offline token', (value) => {
    storage.setItem(OFFLINE_TOKEN_KEY, 'old-offline');
    const store = createSessionStore(storage);
    store.setOfflineToken(value);
    expect(storage.getItem(OFFLINE_TOKEN_KEY)).toBeNull();
    expect(store.getOfflineToken()).toBeNull();
  });

  it('clear() removes both tokens and nothing else', () => {
    storage.setItem(TOKEN_KEY, 'access');
    storage.setItem(OFFLINE_TOKEN_KEY, 'offline');
    storage.setItem('unrelated', 'kept');
    createSessionStore(storage).clear();
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(storage.getItem(OFFLINE_TOKEN_KEY)).toBeNull();
    expect(storage.getItem('unrelated')).toBe('kept');
  });

  it('authenticated means a non-blank token is held', () => {
    const store = createSessionStore(storage);
    expect(store.isAuthenticated()).toBe(false);
    storage.setItem(TOKEN_KEY, '  ');
    expect(store.isAuthenticated()).toBe(false);
    store.setToken('access');
    expect(store.isAuthenticated()).toBe(true);
    store.clear();
    expect(store.isAuthenticated()).toBe(false);
  });

  it('an offline token alone is not a session', () => {
    const store = createSessionStore(storage);
    store.setOfflineToken('offline');
    expect(store.isAuthenticated()).toBe(false);
  });

  it('reads through to storage, so a token another tab wrote is seen', () => {
    const store = createSessionStore(storage);
    storage.setItem(TOKEN_KEY, 'from-other-tab');
    expect(store.getToken()).toBe('from-other-tab');
  });
});

describe('the session hint (contract/session-hint.ts) follows every change of the stored session', () => {
  it('hears "held" after a token or an offline token is stored, and "not held" once both are gone', () => {
    const heard: boolean[] = [];
    const store = createSessionStore(memoryStorage(), (held) => heard.push(held));
    store.setToken('access');
    store.setOfflineToken('offline');
    store.setOfflineToken(null);
    store.clear();
    store.setOfflineToken('offline');
    store.setOfflineToken('  ');
    expect(heard).toEqual([true, true, true, false, true, false]);
  });

  it('the server reads the hint from a Cookie header, and nothing else counts', () => {
    expect(hasSessionHint(`${SESSION_HINT_COOKIE}=1`)).toBe(true);
    expect(hasSessionHint(`theme=dark;  ${SESSION_HINT_COOKIE}=1; lang=de`)).toBe(true);
    expect(hasSessionHint(undefined)).toBe(false);
    expect(hasSessionHint(`${SESSION_HINT_COOKIE}=`)).toBe(false);
    expect(hasSessionHint(`${SESSION_HINT_COOKIE}=10`)).toBe(false);
    expect(hasSessionHint(`x${SESSION_HINT_COOKIE}=1`)).toBe(false);
  });
});

describe("issue 47: a tab that holds a read-only view keeps it to itself", () => {
  it("reads and writes the view's token in the tab's storage, never the browser's shared session", () => {
    const shared = memoryStorage();
    const tab = memoryStorage();
    const hints: boolean[] = [];
    const session = createSessionStore(shared, (held) => hints.push(held), tab);
    session.setToken('staff-token');
    session.setOfflineToken('staff-offline');
    expect(session.isReadOnlyView()).toBe(false);

    session.enterReadOnlyView('view-token');
    expect(session.isReadOnlyView()).toBe(true);
    expect(session.getToken()).toBe('view-token');
    expect(session.getOfflineToken()).toBeNull();
    // A renewed token (the `Bearer` header) and the end of the view stay in the tab.
    session.setToken('view-token-2');
    session.setOfflineToken('ignored');
    expect(session.getToken()).toBe('view-token-2');
    const hintsBefore = hints.length;
    session.clear();
    expect(session.getToken()).toBeNull();
    expect(session.isAuthenticated()).toBe(false);
    expect(hints).toHaveLength(hintsBefore);
    // The tab stays a view's (ended): the staff member's session is still theirs, in the other tabs.
    expect(session.isReadOnlyView()).toBe(true);
    expect(shared.getItem(TOKEN_KEY)).toBe('staff-token');
    expect(shared.getItem(OFFLINE_TOKEN_KEY)).toBe('staff-offline');
    // Another tab (its own storage) reads the shared session as before.
    expect(createSessionStore(shared, () => undefined, memoryStorage()).getToken()).toBe('staff-token');
  });
});
