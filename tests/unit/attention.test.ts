import { describe, expect, it } from 'vitest';
import type { Overview } from '../../contract/overview.js';
import { attentionOf } from '../../src/pages/account/home/OverviewCards.js';

/** An active monthly subscription renewing in two weeks, paid with a card of `month`/`year`. */
function overview(card: { expiryMonth: number; expiryYear: number } | null, subscription: Partial<NonNullable<Overview['subscription']>> = {}): Overview {
  return {
    entitlement: { plan: 'subscription', exportEnabled: true, seatLimit: 2, releases: [], items: [], accessEndsAt: null } as unknown as Overview['entitlement'],
    subscription: {
      status: 'active',
      interval: 'month',
      planName: 'Monthly',
      price: { amount: 1999, currencyCode: 'USD' },
      nextCharge: { at: '2026-12-12T10:00:00.000Z', amount: null },
      trialEndsAt: null,
      endsAt: null,
      pastDue: null,
      pause: null,
      ...subscription,
    },
    paymentMethod: card ? { type: 'card', card: { brand: 'visa', last4: '4242', ...card } } : null,
    seats: { used: 0, limit: 2 },
    licences: [],
    accessEndsAt: null,
    unavailable: [],
  };
}

const keys = (items: ReturnType<typeof attentionOf>) => items.map((item) => item.key);

describe("the home's attention list (issue 48 item 8) follows the card warning mail's rule (issue 46 item 6)", () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('a card that works through December is within its 30 days from 1 December only', () => {
    // December 2026 expires when January 2027 begins: 34 days away on 28 November, 30 days away on 2 December.
    expect(keys(attentionOf(overview({ expiryMonth: 12, expiryYear: 2026 }), now))).toEqual([]);
    expect(keys(attentionOf(overview({ expiryMonth: 12, expiryYear: 2026 }), new Date('2026-12-02T00:00:00Z')))).toEqual(['attentionCardExpiring']);
  });

  it('a card of this month is expiring, one of last month expired, and the line names it', () => {
    const expiring = attentionOf(overview({ expiryMonth: 11, expiryYear: 2026 }), now);
    expect(expiring).toEqual([expect.objectContaining({ key: 'attentionCardExpiring', last4: '4242', expiry: '11/2026' })]);
    expect(keys(attentionOf(overview({ expiryMonth: 10, expiryYear: 2026 }), now))).toEqual(['attentionCardExpired']);
  });

  it('a subscription that ends asks nothing of its card; an overdue payment comes first; a trial three days from its charge', () => {
    expect(keys(attentionOf(overview({ expiryMonth: 10, expiryYear: 2026 }, { endsAt: '2026-12-12T10:00:00.000Z' }), now))).toEqual(['attentionEnding']);
    expect(keys(attentionOf(overview({ expiryMonth: 10, expiryYear: 2026 }, { status: 'past_due' }), now))).toEqual(['attentionPastDue', 'attentionCardExpired']);
    expect(keys(attentionOf(overview(null, { status: 'trialing', trialEndsAt: '2026-11-30T12:00:00.000Z' }), now))).toEqual(['attentionTrialEnding']);
    expect(keys(attentionOf(overview(null, { status: 'trialing', trialEndsAt: '2026-12-05T12:00:00.000Z' }), now))).toEqual([]);
  });
});
