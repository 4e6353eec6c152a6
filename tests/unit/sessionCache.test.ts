import { describe, expect, it } from 'vitest';
import { createSessionCache } from '../../providers/cache.js';
import type { Me } from '../../contract/users.js';

const USER = { id: 'u1', email: 'a@example.com' } as Me;

/** The tab's per-user memory (issue 44 item 8): one session's, emptied whenever the session is another. */
describe('the session cache', () => {
  it('clear empties the user and every store added, and forgets whose they were', () => {
    const cache = createSessionCache();
    const cleared: string[] = [];
    cache.add(() => cleared.push('queries'));
    cache.add(() => cleared.push('stream'));
    cache.claim('session-a');
    cache.user = USER;
    cleared.length = 0;
    cache.clear();
    expect(cleared).toEqual(['queries', 'stream']);
    expect(cache.user).toBeNull();
    expect(cache.session).toBeNull();
  });

  it('a store removed is not emptied any more', () => {
    const cache = createSessionCache();
    let cleared = 0;
    const remove = cache.add(() => {
      cleared += 1;
    });
    remove();
    cache.clear();
    expect(cleared).toBe(0);
  });

  it('claiming for the session it holds keeps everything; for another session it empties first', () => {
    const cache = createSessionCache();
    let cleared = 0;
    cache.add(() => {
      cleared += 1;
    });
    expect(cache.claim('session-a')).toBe(true);
    cache.user = USER;
    const afterFirst = cleared;
    expect(cache.claim('session-a')).toBe(false);
    expect(cache.user).toBe(USER);
    expect(cleared).toBe(afterFirst);
    expect(cache.claim('session-b')).toBe(true);
    expect(cache.user).toBeNull();
    expect(cache.session).toBe('session-b');
    expect(cleared).toBe(afterFirst + 1);
  });

  it('no session (signed out) is a session of its own: the stores of the one before go', () => {
    const cache = createSessionCache();
    cache.claim('session-a');
    cache.user = USER;
    expect(cache.claim(null)).toBe(true);
    expect(cache.user).toBeNull();
  });
});
