import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { CARD_FIELDS, SUBMIT_CARD, createVerifiedUser, launchBrowser, newPage, url } from './browser.js';

/**
 * The offline stand-in for Paddle.js, driven through the real `@paddle/paddle-js` loader in Chromium: it
 * must find window.PaddleBillingV1 and never reach Paddle's CDN; the inline checkout takes test cards,
 * emits Paddle's checkout events, and the payment reaches the portal as a signed webhook over HTTP.
 */
let browser: Browser;
let loader: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // The real package, bundled for the page exactly as the SPA's build would include it.
  const bundled = await build({
    stdin: { contents: "import { initializePaddle } from '@paddle/paddle-js'; window.initializePaddle = initializePaddle;", resolveDir: process.cwd() },
    bundle: true,
    write: false,
    format: 'iife',
  });
  loader = bundled.outputFiles[0]?.text ?? '';
});
afterAll(async () => {
  await browser?.close();
});

async function api(path: string, token: string) {
  const response = await fetch(url(path), { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

/** A signed-in customer and a page of this origin that loads the stand-in before initialising Paddle.js. */
async function harness(): Promise<{ page: Page; token: string; customerId: string; cdnRequests: string[]; errors: string[] }> {
  const user = await createVerifiedUser();
  const login = await fetch(url('/api/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const customerId = (await api('/api/subscription/paddle/customer', token)).id as string;
  const config = await (await fetch(url('/api/paddle/config'))).json();
  expect(config).toEqual({ environment: 'sandbox', clientToken: expect.any(String), sandboxScript: '/paddle-sandbox/paddle.js' });

  const { page, errors } = await newPage(browser);
  const cdnRequests: string[] = [];
  await page.route('https://cdn.paddle.com/**', (route) => {
    cdnRequests.push(route.request().url());
    return route.abort();
  });
  await page.route(url('/paddle-harness'), (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><body><div class="checkout-frame"></div>
        <script src="${config.sandboxScript}"></script><script>${loader}</script></body></html>`,
    }),
  );
  await page.goto(url('/paddle-harness'));
  await page.evaluate(async (clientToken) => {
    const w = window as unknown as { events: unknown[]; paddle: unknown; initializePaddle: (o: object) => Promise<unknown> };
    w.events = [];
    w.paddle = await w.initializePaddle({ environment: 'sandbox', token: clientToken, eventCallback: (event: unknown) => w.events.push(event) });
  }, config.clientToken as string);
  return { page, token, customerId, cdnRequests, errors };
}

async function eventNames(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { events: { name: string }[] }).events.map((event) => event.name));
}

async function waitForEvent(page: Page, name: string) {
  await page.waitForFunction((wanted) => (window as unknown as { events: { name: string }[] }).events.some((event) => event.name === wanted), name, { timeout: 10_000 });
  return page.evaluate((wanted) => (window as unknown as { events: { name: string; data?: unknown }[] }).events.findLast((event) => event.name === wanted), name);
}

describe('Paddle.js stand-in', () => {
  it('an inline checkout declines 4000 0000 0000 0002, takes 4242 4242 4242 4242, and the webhook grants the trial', async () => {
    const { page, token, customerId, cdnRequests, errors } = await harness();
    await page.evaluate(
      ({ priceId, customer }) => {
        const paddle = (window as unknown as { paddle: { Checkout: { open(o: object): void } } }).paddle;
        paddle.Checkout.open({
          settings: { displayMode: 'inline', frameTarget: 'checkout-frame', frameInitialHeight: 450, frameStyle: 'min-width: 312px;', theme: 'dark', locale: 'de', variant: 'one-page' },
          items: [{ priceId, quantity: 1 }],
          customer: { id: customer },
        });
      },
      { priceId: PRICE_IDS.monthly, customer: customerId },
    );
    const loaded = (await waitForEvent(page, 'checkout.loaded')) as { data: { transaction_id: string; totals: { total: number }; items: { trial_period?: object }[] } };
    expect(loaded.data.totals.total).toBe(0);
    expect(loaded.data.items[0]?.trial_period).toEqual({ interval: 'day', frequency: 14 });
    expect(await page.locator('iframe.paddle-frame').evaluate((frame) => frame.getBoundingClientRect().height)).toBeGreaterThanOrEqual(450);

    const checkout = page.frameLocator('iframe.paddle-frame');
    await checkout.getByRole('button', { name: SUBMIT_CARD }).click();
    // Opened with locale 'de': the stand-in speaks German, as Paddle's checkout does.
    await expect.poll(() => checkout.getByText('Gib eine gültige Kartennummer ein.').isVisible()).toBe(true);

    await checkout.getByLabel(CARD_FIELDS.number).fill('4000 0000 0000 0002');
    await checkout.getByLabel(CARD_FIELDS.expiry).fill('12/30');
    await checkout.getByLabel(CARD_FIELDS.securityCode).fill('123');
    await checkout.getByLabel(CARD_FIELDS.name).fill('Ada Lovelace');
    await checkout.getByRole('button', { name: SUBMIT_CARD }).click();
    await waitForEvent(page, 'checkout.payment.failed');
    await expect.poll(() => checkout.getByText('Deine Karte wurde abgelehnt.', { exact: false }).isVisible()).toBe(true);
    expect(await api('/api/subscription/user', token)).toBeNull();

    await checkout.getByLabel(CARD_FIELDS.number).fill('4242 4242 4242 4242');
    await checkout.getByRole('button', { name: SUBMIT_CARD }).click();
    const completed = (await waitForEvent(page, 'checkout.completed')) as { data: { transaction_id: string; status: string } };
    expect(completed.data).toMatchObject({ transaction_id: loaded.data.transaction_id, status: 'completed' });
    await expect.poll(async () => (await api('/api/subscription/user', token))?.status, { timeout: 10_000 }).toBe('trialing');

    expect(await eventNames(page)).toEqual([
      'checkout.loaded',
      'checkout.payment.selected',
      'checkout.payment.initiated',
      'checkout.payment.failed',
      'checkout.payment.initiated',
      'checkout.completed',
    ]);
    expect(cdnRequests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('updateItems swaps the plan in the open checkout; PricePreview prices with tax; close closes', async () => {
    const { page, customerId, errors } = await harness();
    await page.evaluate(
      ({ priceId, customer }) => {
        const paddle = (window as unknown as { paddle: { Checkout: { open(o: object): void } } }).paddle;
        paddle.Checkout.open({ settings: { displayMode: 'inline', frameTarget: 'checkout-frame' }, items: [{ priceId, quantity: 1 }], customer: { id: customer } });
      },
      { priceId: PRICE_IDS.perpetual2025, customer: customerId },
    );
    const loaded = (await waitForEvent(page, 'checkout.loaded')) as { data: { totals: { total: number } } };
    expect(loaded.data.totals.total).toBe(299);
    await page.evaluate((priceId) => {
      (window as unknown as { paddle: { Checkout: { updateItems(items: object[]): void } } }).paddle.Checkout.updateItems([{ priceId, quantity: 1 }]);
    }, PRICE_IDS.perpetual2024);
    const updated = (await waitForEvent(page, 'checkout.items.updated')) as { data: { items: { price_id: string }[]; totals: { total: number } } };
    expect(updated.data.items[0]?.price_id).toBe(PRICE_IDS.perpetual2024);
    expect(updated.data.totals.total).toBe(249);
    await expect.poll(() => page.frameLocator('iframe.paddle-frame').getByRole('button', { name: /^Pay \$249\.00$/ }).isVisible()).toBe(true);

    const preview = await page.evaluate(async (priceId) => {
      const paddle = (window as unknown as { paddle: { PricePreview(o: object): Promise<{ data: { details: { lineItems: { formattedTotals: { total: string; tax: string } }[] } } }> } }).paddle;
      return (await paddle.PricePreview({ items: [{ priceId, quantity: 1 }], address: { countryCode: 'DE' } })).data.details.lineItems[0]?.formattedTotals;
    }, PRICE_IDS.perpetual2025);
    expect(preview).toMatchObject({ total: '$355.81', tax: '$56.81' });

    await page.evaluate(() => (window as unknown as { paddle: { Checkout: { close(): void } } }).paddle.Checkout.close());
    await waitForEvent(page, 'checkout.closed');
    expect(await page.locator('iframe.paddle-frame').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
