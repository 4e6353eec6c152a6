import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import type { BillingConfig } from '../../server/config.js';
import { DISCOUNT_IDS, PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { sandboxBilling, startPaddleSandbox } from '../../server/sandbox/index.js';
import { signIn, someClientAddress, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/** The catalogue, previews, discounts and customer through the real Paddle SDK and the stand-in (billing info: billing-info.test.ts). */
let billing: BillingConfig;
let closeSandbox: () => Promise<void>;

beforeAll(async () => {
  const sandbox = await startPaddleSandbox({ host: '127.0.0.1', clock: new FixedClock(TEST_NOW), dataFile: null });
  billing = { sandbox: true, ...sandboxBilling(sandbox) };
  closeSandbox = sandbox.close;
});
afterAll(async () => {
  await closeSandbox?.();
});

function call(server: TestServer, method: 'GET' | 'POST', url: string, payload?: object, token?: string, language = 'en') {
  return server.app.inject({
    method,
    url,
    payload,
    headers: { 'accept-language': language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    remoteAddress: someClientAddress(),
  });
}

async function session(server: TestServer) {
  const user = await server.createUser();
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

describeEachDatabase(
  'billing catalogue and customers',
  (server) => {
    it('lists the monthly and yearly plans with their trial and default discount; yearly costs ten months', async () => {
      const { token } = await session(server());
      const response = await call(server(), 'GET', '/api/paddle/list-plans', undefined, token);
      expect(response.statusCode, response.body).toBe(200);
      const [monthly, yearly] = response.json();
      expect(monthly).toEqual({
        id: PRICE_IDS.monthly,
        description: 'Monthly',
        interval: 'month',
        unitPrice: { amount: 1999, currencyCode: 'USD' },
        trialDays: 14,
        discount: { id: DISCOUNT_IDS.launchMonthly },
        offer: {
          discountId: DISCOUNT_IDS.launchMonthly,
          description: 'Launch offer: first month half price',
          // Issue 48 item 4: the discount's name in both languages, German from the catalogue's custom_data.
          i18n: { en: 'Launch offer: first month half price', de: 'Einführungsangebot: erster Monat zum halben Preis' },
          recur: false,
          maximumRecurringIntervals: null,
          price: { amount: 999, currencyCode: 'USD' },
        },
        i18n: {
          en: { name: 'Monthly', description: 'Every release while subscribed, on two devices at once.' },
          de: { name: 'Monatlich', description: 'Jede Version, solange du abonniert bist, auf zwei Geräten gleichzeitig.' },
        },
      });
      expect(yearly).toMatchObject({ id: PRICE_IDS.yearly, interval: 'year', discount: null });
      expect(yearly.unitPrice.amount).toBe(monthly.unitPrice.amount * 10);
      expect((await call(server(), 'GET', '/api/paddle/list-plans')).statusCode).toBe(401);
    });

    it('lists the perpetual products with their prices and release', async () => {
      const { token } = await session(server());
      const products = (await call(server(), 'GET', '/api/perpetual/products', undefined, token)).json();
      expect(products.map((p: { custom_data: { shapelabRelease: string } }) => p.custom_data.shapelabRelease)).toEqual(['2025', '2024']);
      expect(products[0].prices[0]).toEqual({ id: PRICE_IDS.perpetual2025, description: 'Shapelab 2025 perpetual licence', unitPrice: { amount: 29900, currencyCode: 'USD' }, upgradePrice: null });
    });

    it('carries the catalogue in en and de from Paddle custom_data.i18n, the German falling back to the English', async () => {
      const { token } = await session(server());
      // The same answer whatever the request's language: the SPA picks the reader's.
      for (const language of ['en', 'de']) {
        const products = (await call(server(), 'GET', '/api/perpetual/products', undefined, token, language)).json();
        expect(products[0].i18n).toEqual({
          en: { name: 'Shapelab 2025', description: 'The 2025 release to keep, with its updates.' },
          de: { name: 'Shapelab 2025', description: 'Die Version 2025 zum Behalten, mit ihren Updates.' },
        });
        const plans = (await call(server(), 'GET', '/api/paddle/list-plans', undefined, token, language)).json();
        expect(plans.map((plan: { i18n: { de: { name: string } } }) => plan.i18n.de.name)).toEqual(['Monatlich', 'Jährlich']);
      }
      const { catalogueText } = await import('../../server/modules/billing/catalogue.js');
      // A product without German text answers its English for de.
      expect(catalogueText({ name: 'Shapelab 2026', description: 'New', customData: { kind: 'perpetual' } })).toEqual({
        en: { name: 'Shapelab 2026', description: 'New' },
        de: { name: 'Shapelab 2026', description: 'New' },
      });
      expect(catalogueText({ name: 'X', description: null, customData: { i18n: { de: { name: '  ', description: 'Beschreibung' } } } }).de).toEqual({ name: 'X', description: 'Beschreibung' });
    });

    it('previews plan prices in minor units with tax by country and an optional discount', async () => {
      const plain = await call(server(), 'POST', '/api/subscription/preload', { countryCode: 'DE' });
      expect(plain.statusCode, plain.body).toBe(200);
      const monthly = plain.json().details.lineItems[0];
      expect(monthly.price).toEqual({
        id: PRICE_IDS.monthly,
        name: 'Monthly',
        i18n: {
          en: { name: 'Monthly', description: 'Every release while subscribed, on two devices at once.' },
          de: { name: 'Monatlich', description: 'Jede Version, solange du abonniert bist, auf zwei Geräten gleichzeitig.' },
        },
      });
      // 19.99 USD plus 19% German VAT, rounded to the cent.
      expect(monthly.totals).toEqual({ subtotal: 1999, discount: 0, tax: 380, total: 2379 });
      expect(monthly.formattedTotals.total).toBe('$23.79');
      expect(monthly.discount).toBeNull();

      const discounted = await call(server(), 'POST', '/api/subscription/preload', { countryCode: 'DE', discountCode: 'welcome20' });
      const line = discounted.json().details.lineItems[0];
      expect(line.totals).toEqual({ subtotal: 1999, discount: 400, tax: 304, total: 1903 });
      expect(line.discount).toMatchObject({ id: DISCOUNT_IDS.welcome, code: 'WELCOME20', type: 'percentage', amount: 20 });

      const hungary = (await call(server(), 'POST', '/api/perpetual/preload', { countryCode: 'HU' })).json();
      expect(hungary.currencyCode).toBe('HUF');
      expect(hungary.details.lineItems[0].totals.subtotal).toBe(11990000);

      const empty = await call(server(), 'POST', '/api/perpetual/preload');
      expect(empty.statusCode, empty.body).toBe(200);
    });

    it('names every discount problem with its messageKey, in en and de', async () => {
      const cases: [string, string, number][] = [
        ['NOSUCHCODE', 'DISCOUNT_NOT_FOUND', 404],
        ['SUMMER2023', 'DISCOUNT_EXPIRED', 400],
        ['OLDPROMO', 'DISCOUNT_ARCHIVED', 400],
        ['ONEUSE', 'DISCOUNT_USAGE_LIMIT_EXCEEDED', 400],
        ['not a code!', 'INVALID_COUPON_CODE', 400],
      ];
      for (const [code, messageKey, status] of cases) {
        const response = await call(server(), 'GET', `/api/perpetual/discount-object-by-code/?discountCode=${encodeURIComponent(code)}`);
        expect(response.statusCode, code).toBe(status);
        expect(response.json().messageKey, code).toBe(messageKey);
        const preload = await call(server(), 'POST', '/api/perpetual/preload', { discountCode: code });
        expect(preload.json().messageKey, `preload ${code}`).toBe(messageKey);
      }
      const notHumble = await call(server(), 'GET', '/api/perpetual/discount-object-by-code/?discountCode=WELCOME20&humbleBundle=true', undefined, undefined, 'de');
      expect(notHumble.json()).toEqual({ messageKey: 'DISCOUNT_NOT_HUMBLE_BUNDLE', message: 'Das ist kein Humble-Bundle-Code.' });
      const humble = await call(server(), 'GET', '/api/perpetual/discount-object-by-code/?discountCode=HUMBLE2025&humbleBundle=true');
      expect(humble.json()).toMatchObject({ id: DISCOUNT_IDS.humble, restrictTo: [PRICE_IDS.perpetual2025] });
      const unknownId = await call(server(), 'POST', '/api/subscription/preload', { discountId: 'dsc_01hnosuchdiscount0000000000' });
      expect(unknownId.json().messageKey).toBe('DISCOUNT_NOT_FOUND');
    });

    it('offers the upgrade discount on the new release only to those eligible', async () => {
      const eligible = await call(server(), 'GET', `/api/perpetual/get-discount-by-price-id?priceId=${PRICE_IDS.perpetual2025}&eligibleForDiscount=true`);
      expect(eligible.json()).toMatchObject({ id: DISCOUNT_IDS.upgrade, amount: 40, i18n: { en: "Upgrade from Shapelab 2024: 40% off", de: "Upgrade von Shapelab 2024: 40 % Rabatt" } });
      const not = await call(server(), 'GET', `/api/perpetual/get-discount-by-price-id?priceId=${PRICE_IDS.perpetual2025}&eligibleForDiscount=false`);
      expect(not.json()).toBeNull();
    });

    it('creates the Paddle customer on first use, once, even when asked twice at once', async () => {
      const user = await session(server());
      const [a, b] = await Promise.all([
        call(server(), 'GET', '/api/subscription/paddle/customer', undefined, user.token),
        call(server(), 'GET', '/api/subscription/paddle/customer', undefined, user.token),
      ]);
      expect(a.statusCode, a.body).toBe(200);
      expect(a.json().id).toMatch(/^ctm_/);
      expect(b.json().id).toBe(a.json().id);
      const again = await call(server(), 'GET', '/api/subscription/paddle/customer', undefined, user.token);
      expect(again.json().id).toBe(a.json().id);
      const other = await session(server());
      expect((await call(server(), 'GET', '/api/subscription/paddle/customer', undefined, other.token)).json().id).not.toBe(a.json().id);
    });
  },
  () => ({ billing }),
);

describeEachDatabase('billing without a provider', (server) => {
  it('answers BILLING_UNAVAILABLE (503) with a messageKey, never a 500', async () => {
    const response = await call(server(), 'POST', '/api/subscription/preload', {});
    expect(response.statusCode).toBe(503);
    expect(response.json().messageKey).toBe('BILLING_UNAVAILABLE');
  });
});
