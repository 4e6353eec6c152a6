import { afterEach, describe, expect, it, vi } from 'vitest';
import { cache } from '../../providers/index.js';
import { queryClientOf } from '../../src/refine.js';

/**
 * Refine's query cache is one server session's (issue 44 item 8): one client for the tab's life showed the
 * next user the last one's plan, price and card until each screen had asked again.
 */
describe("Refine's query client of a session", () => {
  afterEach(() => {
    cache.clear();
    vi.useRealTimers();
  });

  it('is the same client for the same session, and a new, empty one for the next session', () => {
    vi.useFakeTimers();
    const forA = queryClientOf('session-a');
    forA.setQueryData(['overview'], { plan: 'monthly' });
    expect(queryClientOf('session-a')).toBe(forA);
    const forB = queryClientOf('session-b');
    expect(forB).not.toBe(forA);
    expect(forB.getQueryData(['overview'])).toBeUndefined();
    // The client of the session before empties once the frame that used it has gone.
    vi.runAllTimers();
    expect(forA.getQueryData(['overview'])).toBeUndefined();
  });

  it('goes with the session: after the cache is cleared (a sign-out), the same session gets a new client too', () => {
    vi.useFakeTimers();
    const before = queryClientOf('session-a');
    before.setQueryData(['overview'], { plan: 'monthly' });
    cache.clear();
    const after = queryClientOf('session-a');
    expect(after).not.toBe(before);
    expect(after.getQueryData(['overview'])).toBeUndefined();
    vi.runAllTimers();
    expect(before.getQueryData(['overview'])).toBeUndefined();
  });
});
