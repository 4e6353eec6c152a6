import { addDays, addMonths, addYears } from 'date-fns';
import type { DiscountDuration } from '../../contract/billing.js';

/** An amount in minor units of `currencyCode`; `plusTax` when the figure excludes tax that will be added. */
export interface Charge {
  amount: number;
  currencyCode: string;
  plusTax: boolean;
}

/** What a subscription checkout will charge after today, in the order the customer meets it. */
export interface ChargeSchedule {
  /** The free trial: how long, and the day it ends (the first payment's day). */
  trial: { days: number; endsAt: Date } | null;
  /** The next payment: the trial's end, or one billing period from today. */
  next: { at: Date; charge: Charge };
  /** The discount per payment and how many payments it covers: 'once', a count, or 'every'. */
  discount: { description: string; off: Charge; covers: 'once' | number | 'every' } | null;
  /** The regular price once the discount has run out, from when; null when nothing changes later. */
  then: { from: Date; charge: Charge } | null;
}

export interface ScheduleInput {
  now: Date;
  interval: 'month' | 'year';
  trialDays: number | null;
  currencyCode: string;
  /** The provider's totals of the first recurring payment (minor units): with the discount, with tax. */
  recurring: { discount: number; tax: number; total: number };
  /** The plan's regular price, tax excluded (minor units of `currencyCode`). */
  regularPrice: number;
  discount: (DiscountDuration & { description: string }) | null;
}

const addIntervals = (date: Date, interval: 'month' | 'year', count: number) => (interval === 'year' ? addYears(date, count) : addMonths(date, count));

/**
 * The payments of a new subscription as Paddle will make them (its discount rules: `recur` false takes
 * the discount off the first payment only, a trial's first payment being the one when it ends; `recur`
 * with `maximumRecurringIntervals` N off the first N payments; without a limit off every payment). The
 * discounted payments are the provider's own total; a payment after the discount is the plan's regular
 * price, which excludes tax (`plusTax` when the provider charges tax). No amount is computed here.
 */
export function chargeSchedule(input: ScheduleInput): ChargeSchedule {
  const { now, interval, currencyCode, recurring } = input;
  const trial = input.trialDays ? { days: input.trialDays, endsAt: addDays(now, input.trialDays) } : null;
  // Payment 1 is today's without a trial, the trial's end with one.
  const firstAt = trial ? trial.endsAt : now;
  const nextIndex = trial ? 1 : 2;
  const discount = input.discount && recurring.discount > 0 ? input.discount : null;
  const covers: 'once' | number | 'every' | null = !discount ? null : !discount.recur ? 'once' : (discount.maximumRecurringIntervals ?? 'every');
  const coveredCount = covers === null ? 0 : covers === 'once' ? 1 : covers === 'every' ? Number.POSITIVE_INFINITY : covers;
  const discounted: Charge = { amount: recurring.total, currencyCode, plusTax: false };
  const regular: Charge = { amount: input.regularPrice, currencyCode, plusTax: recurring.tax > 0 };
  const chargeOf = (index: number) => (covers === null || index <= coveredCount ? discounted : regular);
  const firstRegular = coveredCount + 1;
  return {
    trial,
    next: { at: addIntervals(firstAt, interval, nextIndex - 1), charge: chargeOf(nextIndex) },
    discount: discount && covers !== null ? { description: discount.description, off: { amount: recurring.discount, currencyCode, plusTax: false }, covers } : null,
    then: covers !== null && covers !== 'every' && firstRegular > nextIndex ? { from: addIntervals(firstAt, interval, firstRegular - 1), charge: regular } : null,
  };
}
