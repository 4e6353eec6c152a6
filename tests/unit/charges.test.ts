import { describe, expect, it } from 'vitest';
import { chargeSchedule, type ScheduleInput } from '../../src/billing/charges.js';

const NOW = new Date('2026-11-25T10:00:00Z');
/** A monthly plan at $19.99 with a 14-day trial; the provider's first recurring payment $9.99 after $10.00 off, no tax. */
const base: ScheduleInput = {
  now: NOW,
  interval: 'month',
  trialDays: 14,
  currencyCode: 'USD',
  recurring: { discount: 1000, tax: 0, total: 999 },
  regularPrice: 1999,
  discount: { description: 'Launch offer', recur: false, maximumRecurringIntervals: null },
};

describe('chargeSchedule', () => {
  it('a trial with a first-payment discount: the discounted first payment when the trial ends, the regular price a period later', () => {
    const schedule = chargeSchedule(base);
    expect(schedule.trial).toEqual({ days: 14, endsAt: new Date('2026-12-09T10:00:00Z') });
    expect(schedule.next).toEqual({ at: new Date('2026-12-09T10:00:00Z'), charge: { amount: 999, currencyCode: 'USD', plusTax: false } });
    expect(schedule.discount).toEqual({ description: 'Launch offer', off: { amount: 1000, currencyCode: 'USD', plusTax: false }, covers: 'once' });
    expect(schedule.then).toEqual({ from: new Date('2027-01-09T10:00:00Z'), charge: { amount: 1999, currencyCode: 'USD', plusTax: false } });
  });

  it('a discount over the first 3 payments: the regular price from the fourth', () => {
    const schedule = chargeSchedule({ ...base, discount: { description: 'Welcome', recur: true, maximumRecurringIntervals: 3 } });
    expect(schedule.discount?.covers).toBe(3);
    expect(schedule.next.charge.amount).toBe(999);
    expect(schedule.then?.from).toEqual(new Date('2027-03-09T10:00:00Z'));
  });

  it('a discount on every payment never ends: no regular price is announced', () => {
    const schedule = chargeSchedule({ ...base, discount: { description: 'Forever', recur: true, maximumRecurringIntervals: null } });
    expect(schedule.discount?.covers).toBe('every');
    expect(schedule.then).toBeNull();
    expect(schedule.next.charge.amount).toBe(999);
  });

  it('without a trial the first payment is today: a first-payment discount leaves the next payment at the regular price, plus tax when taxed', () => {
    const schedule = chargeSchedule({ ...base, trialDays: null, interval: 'year', recurring: { discount: 1000, tax: 190, total: 1189 } });
    expect(schedule.trial).toBeNull();
    expect(schedule.next).toEqual({ at: new Date('2027-11-25T10:00:00Z'), charge: { amount: 1999, currencyCode: 'USD', plusTax: true } });
    // The regular price is already the next payment's: nothing changes later.
    expect(schedule.then).toBeNull();
  });

  it('a discount that takes nothing off is not claimed, and the next payment is the provider total', () => {
    const schedule = chargeSchedule({ ...base, recurring: { discount: 0, tax: 0, total: 1999 } });
    expect(schedule.discount).toBeNull();
    expect(schedule.then).toBeNull();
    expect(schedule.next.charge).toEqual({ amount: 1999, currencyCode: 'USD', plusTax: false });
  });
});
