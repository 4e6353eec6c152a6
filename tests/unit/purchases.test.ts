import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import deAccount from '../../locales/de/account.json';
import de from '../../locales/de/translation.json';
import enAccount from '../../locales/en/account.json';
import en from '../../locales/en/translation.json';
import { purchaseItemName, type PurchaseItem } from '../../src/components/PurchaseItemName.js';
import { returnableNow } from '../../src/pages/account/Licences.js';
import { refundText } from '../../src/pages/account/PurchaseHistory.js';
import { cancelChoices } from '../../src/pages/account/Subscription.js';

/** The app's texts as the signed-in frame has them (translation.json with account.json merged in). */
const texts: Record<'en' | 'de', TFunction> = {} as Record<'en' | 'de', TFunction>;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: {}, fallbackLng: 'en', interpolation: { escapeValue: false } });
  for (const [language, bundles] of [
    ['en', [en, enAccount]],
    ['de', [de, deAccount]],
  ] as const) {
    for (const bundle of bundles) instance.addResourceBundle(language, 'translation', bundle, true, true);
    texts[language] = instance.getFixedT(language);
  }
});

const item = (fields: Partial<PurchaseItem>): PurchaseItem => ({ name: 'Catalogue name', kind: null, release: null, interval: null, ...fields });

describe('what a payment bought, named in the reader’s language (spec section 2: plan, product version)', () => {
  it.each([
    [{ kind: 'subscription', interval: 'month' }, 'Subscription, monthly', 'Abonnement, monatlich'],
    [{ kind: 'subscription', interval: 'year' }, 'Subscription, yearly', 'Abonnement, jährlich'],
    [{ kind: 'subscription', interval: null }, 'Subscription', 'Abonnement'],
    [{ kind: 'perpetual', release: '2025' }, 'Shapelab 2025 perpetual licence', 'Shapelab 2025 Dauerlizenz'],
    [{ kind: 'perpetual', release: '2024' }, 'Shapelab 2024 perpetual licence', 'Shapelab 2024 Dauerlizenz'],
  ] as const)('%j is "%s" in en and "%s" in de', (fields, english, german) => {
    expect(purchaseItemName(item(fields), texts.en)).toBe(english);
    expect(purchaseItemName(item(fields), texts.de)).toBe(german);
  });

  it('keeps the catalogue’s name for what it cannot name (an unknown kind, a perpetual item without its release)', () => {
    expect(purchaseItemName(item({ name: 'Gift card' }), texts.de)).toBe('Gift card');
    expect(purchaseItemName(item({ name: 'Shapelab bundle', kind: 'perpetual' }), texts.en)).toBe('Shapelab bundle');
  });
});

describe('a payment’s refund in words', () => {
  it.each([
    ['approved', 'duplicate', 'Refunded $19.99 · duplicate purchase', '19,99\u00a0$ erstattet · doppelter Kauf'],
    ['pending', 'customer', 'Refund of $19.99 pending · at your request', 'Erstattung von 19,99\u00a0$ ausstehend · auf deinen Wunsch'],
    ['rejected', 'customer', 'Refund of $19.99 declined · at your request', 'Erstattung von 19,99\u00a0$ abgelehnt · auf deinen Wunsch'],
  ] as const)('%s (%s)', (status, reason, english, german) => {
    const refund = { status, reason, amount: 1999 };
    expect(refundText(refund, 'USD', 'en', texts.en)).toBe(english);
    expect(refundText(refund, 'USD', 'de', texts.de)).toBe(german);
  });

  it('in the payment’s own currency', () => {
    expect(refundText({ status: 'approved', reason: 'customer', amount: 11990000 }, 'HUF', 'en', texts.en)).toBe('Refunded HUF\u00a0119,900.00 · at your request');
  });
});

describe('cancelling a subscription (spec sections 4 and 9: refund by cancelling within 14 days)', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const refund = (until: string) => ({ until, amount: { amount: 1999, currencyCode: 'USD' } });
  const base = { status: 'active' as const, scheduledChange: null, refund: null };

  it('offers only the end of the period when no refund is offered (a trial, or after 14 days)', () => {
    expect(cancelChoices(base, now)).toEqual(['period']);
  });

  it('within 14 days of the first payment offers the refund first, beside the end of the period', () => {
    expect(cancelChoices({ ...base, refund: refund('2026-12-01T00:00:00Z') }, now)).toEqual(['refund', 'period']);
  });

  it('stops offering the refund once its deadline passed, even if the page still holds the offer', () => {
    expect(cancelChoices({ ...base, refund: refund('2026-11-23T11:59:59Z') }, now)).toEqual(['period']);
  });

  it('a subscription already set to end can still be refunded within the window, and nothing else', () => {
    const cancelling = { ...base, scheduledChange: { action: 'cancel', effectiveAt: '2026-12-20T00:00:00Z' } };
    expect(cancelChoices({ ...cancelling, refund: refund('2026-12-01T00:00:00Z') }, now)).toEqual(['refund']);
    expect(cancelChoices(cancelling, now)).toEqual([]);
  });

  it('an ended subscription offers nothing', () => {
    expect(cancelChoices({ ...base, status: 'canceled', refund: refund('2026-12-01T00:00:00Z') }, now)).toEqual([]);
  });
});

describe('returning a licence (spec section 9: within 14 days)', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const paid = { amount: 29900, currencyCode: 'USD' };

  it('is offered while the server’s deadline is ahead', () => {
    expect(returnableNow({ returnableUntil: '2026-12-01T00:00:00Z', paid }, now)).toBe(true);
  });

  it('is not offered after the deadline, when the server says it cannot be, or for a licence nothing was paid for', () => {
    expect(returnableNow({ returnableUntil: '2026-11-23T11:00:00Z', paid }, now)).toBe(false);
    expect(returnableNow({ returnableUntil: null, paid }, now)).toBe(false);
    expect(returnableNow({ returnableUntil: '2026-12-01T00:00:00Z', paid: null }, now)).toBe(false);
  });
});
