import { describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '../../contract/users.js';
import deTexts from '../../locales/de/admin-user.json';
import enTexts from '../../locales/en/admin-user.json';
import { noRefundReason } from '../../src/pages/admin/user/SubscriptionSection.js';

/**
 * Issue 48 item 11: the admin's "Not refundable" says which reason applies, in en and de: refunded already,
 * nothing paid yet, the refund-once rule, or past the 14 days.
 */
type Detail = Pick<AdminUserDetail, 'subscription' | 'transactions'>;
const subscription = (refundUsed: boolean) => ({ id: 'sub_1', refundUsed }) as unknown as NonNullable<AdminUserDetail['subscription']>;
const payment = (refundStatus: string | null, amount = 1999) => ({
  id: `txn_${Math.random()}`,
  status: 'completed',
  origin: 'subscription_recurring',
  subscriptionId: 'sub_1',
  billedAt: '2026-01-01T00:00:00.000Z',
  total: { amount, currencyCode: 'USD' },
  refundStatus,
});

describe('why a subscription is not refundable', () => {
  const cases: [string, Detail, ReturnType<typeof noRefundReason>][] = [
    ['a refunded payment', { subscription: subscription(false), transactions: [payment('approved')] }, 'refunded'],
    ['a refund asked of Paddle', { subscription: subscription(true), transactions: [payment('pending')] }, 'refunded'],
    ['a trial (a $0 transaction only)', { subscription: subscription(false), transactions: [payment(null, 0)] }, 'nothingPaid'],
    ['the refund-once rule', { subscription: subscription(true), transactions: [payment(null)] }, 'refundUsed'],
    ['past the 14 days', { subscription: subscription(false), transactions: [payment(null), payment('rejected')] }, 'pastDays'],
  ];
  for (const [name, detail, reason] of cases) {
    it(`${name}: ${reason}, named in en and de`, () => {
      expect(noRefundReason(detail)).toBe(reason);
      expect(enTexts.subscription.noRefundBecause[reason]).toMatch(/^(Not refundable|Nothing to refund): /);
      expect(deTexts.subscription.noRefundBecause[reason]).toMatch(/^(Nicht erstattbar|Nichts zu erstatten): /);
    });
  }
});
