import { afterEach, describe, expect, it, vi } from 'vitest';
import { cache } from '../../providers/index.js';
import { queryClientOf, retriesQuery } from '../../src/refine.js';

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

  it("does not ask again after a refusal the auth provider acts on (a 401, a staff member without a second factor), so its onError runs at once; other failures are retried three times", () => {
    const retry = queryClientOf('session-a').getDefaultOptions().queries?.retry;
    expect(retry).toBe(retriesQuery);
    const refusal = (statusCode: number, messageKey: string) => ({ statusCode, messageKey, message: messageKey });
    expect(retriesQuery(0, refusal(401, 'UNAUTHORIZED'))).toBe(false);
    expect(retriesQuery(0, refusal(403, 'TWO_FACTOR_ENROLMENT_REQUIRED'))).toBe(false);
    expect(retriesQuery(0, refusal(403, 'FORBIDDEN'))).toBe(true);
    expect(retriesQuery(0, refusal(500, 'INTERNAL_ERROR'))).toBe(true);
    expect(retriesQuery(2, new TypeError('Failed to fetch'))).toBe(true);
    expect(retriesQuery(3, new TypeError('Failed to fetch'))).toBe(false);
  });
});
