import type { PaddleEventData } from '@paddle/paddle-js';
import { describe, expect, it, vi } from 'vitest';
import { createCheckoutDispatcher } from '../../src/billing/checkout-events.js';
import { formatPrice, toMinor } from '../../src/billing/money.js';
import { BACKOFF_MS, parseEvents } from '../../providers/liveProvider.js';
import { trialDaysLeft } from '../../src/pages/account/Subscription.js';

describe('price display (spec section 9)', () => {
  it('shows two decimals in the price’s currency, formatted for the locale', () => {
    expect(formatPrice(1999, 'USD', 'en')).toBe('$19.99');
    expect(formatPrice(19990, 'USD', 'de')).toBe('199,90\u00a0$');
    expect(formatPrice(799000, 'HUF', 'en')).toBe('HUF\u00a07,990.00');
    expect(formatPrice(799000, 'HUF', 'de')).toBe('7.990,00\u00a0HUF');
    expect(formatPrice(0, 'USD', 'en')).toBe('$0.00');
  });

  it('shows nothing for an unknown price, never 0', () => {
    expect(formatPrice(null, 'USD', 'en')).toBe('');
    expect(formatPrice(undefined, 'USD', 'en')).toBe('');
    expect(formatPrice(Number.NaN, 'USD', 'en')).toBe('');
  });

  it('turns Paddle.js major-unit amounts into minor units without float drift', () => {
    expect(toMinor(23.79)).toBe(2379);
    expect(toMinor(0.29)).toBe(29);
    expect(toMinor(355.81)).toBe(35581);
  });
});

describe('checkout event dispatcher', () => {
  const data = { transaction_id: 'txn_1' } as unknown as NonNullable<PaddleEventData['data']>;

  it('sends each provider event to its one handler', () => {
    const on = { loaded: vi.fn(), updated: vi.fn(), paymentStarted: vi.fn(), paymentFailed: vi.fn(), completed: vi.fn(), closed: vi.fn(), error: vi.fn() };
    const dispatch = createCheckoutDispatcher(() => on);
    const events: [string, keyof typeof on][] = [
      ['checkout.loaded', 'loaded'],
      ['checkout.updated', 'updated'],
      ['checkout.items.updated', 'updated'],
      ['checkout.discount.applied', 'updated'],
      ['checkout.payment.initiated', 'paymentStarted'],
      ['checkout.payment.failed', 'paymentFailed'],
      ['checkout.completed', 'completed'],
      ['checkout.closed', 'closed'],
    ];
    for (const [name] of events) dispatch({ name, data } as PaddleEventData);
    dispatch({ name: 'checkout.error', code: 'invalid_field', detail: 'Bad' } as PaddleEventData);
    const warned = vi.fn();
    createCheckoutDispatcher(() => ({ warning: warned }))({ name: 'checkout.warning', code: 'discount_expired', detail: 'Expired' } as unknown as PaddleEventData);
    expect(warned).toHaveBeenCalledWith({ code: 'discount_expired', detail: 'Expired' });
    expect(on.loaded).toHaveBeenCalledWith(data);
    expect(on.updated).toHaveBeenCalledTimes(3);
    expect(on.paymentStarted).toHaveBeenCalledOnce();
    expect(on.paymentFailed).toHaveBeenCalledOnce();
    expect(on.completed).toHaveBeenCalledWith(data);
    expect(on.closed).toHaveBeenCalledOnce();
    expect(on.error).toHaveBeenCalledWith({ code: 'invalid_field', detail: 'Bad' });
  });

  it('ignores events it does not know, and reads the handlers current at each event', () => {
    let on = { completed: vi.fn() };
    const dispatch = createCheckoutDispatcher(() => on);
    dispatch({ name: 'checkout.upsell.canceled', data } as unknown as PaddleEventData);
    const later = { completed: vi.fn() };
    on = later;
    dispatch({ name: 'checkout.completed', data } as PaddleEventData);
    expect(later.completed).toHaveBeenCalledOnce();
  });
});

describe('event stream', () => {
  it('parses complete events, skips comments and heartbeats, keeps the unfinished rest', () => {
    const { events, rest } = parseEvents('retry: 3000\n: connected\n\nevent: subscription\ndata: {"type":"subscription","id":"sub_1"}\n\n: heartbeat\n\nevent: tra');
    expect(events).toEqual(['{"type":"subscription","id":"sub_1"}']);
    expect(rest).toBe('event: tra');
  });

  it('backs off from 1 s to at most 30 s', () => {
    expect(BACKOFF_MS[0]).toBe(1000);
    expect(Math.max(...BACKOFF_MS)).toBe(30_000);
  });
});

describe('trial days left', () => {
  it('counts whole days up, never below zero', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(trialDaysLeft('2026-12-06T10:00:00Z', now)).toBe(14);
    expect(trialDaysLeft('2026-11-22T10:00:01Z', now)).toBe(1);
    expect(trialDaysLeft('2026-11-21T10:00:00Z', now)).toBe(0);
  });
});
