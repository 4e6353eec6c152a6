import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { CARD_FIELDS, createVerifiedUser, launchBrowser, newPage, openInApp, payWith, seriousViolations, shown, signIn } from './browser.js';

/**
 * Issue 20, items 4, 5 and 9 in Chromium on the Paddle stand-in: a consumer in Germany buys with only
 * country and postcode (the region dialog starts from the profile's country), then buys again as a
 * business with a VAT number; one licence is returned; the purchase history shows each payment's status,
 * invoice number and German names under /de, English under /en; the catalogue reads German on
 * /de/perpetual; purchase history and billing info fit a 390 px phone. One user, one browser context.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SUCCESS_CARD = '4242 4242 4242 4242';

/** A call to the portal's API from the signed-in page (its stored token), as the SPA makes it. */
async function api<T>(page: Page, path: string, init: { method?: 'GET' | 'POST' | 'PATCH'; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const answer = await page.evaluate(
    async ({ path: target, method, body }) => {
      const response = await fetch(`/api${target}`, {
        method,
        headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    { path, method: init.method ?? 'GET', body: init.body },
  );
  return answer as { status: number; body: T };
}

/** The widest the page lays out: nothing may be wider than the phone's screen. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function checkoutReady(page: Page): Promise<void> {
  await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
  await expect.poll(async () => (await page.getByTestId('checkout-dueToday').textContent()) ?? '').not.toBe('');
}

describe('billing details, purchase history and the localized catalogue in Chromium', () => {
  it('a consumer in Germany buys without company or VAT, a business with one; history statuses after a return, en and de, on a 390 px phone', async () => {
    const user = await createVerifiedUser('de');
    const { page, errors } = await newPage(browser);
    await signIn(page, '/de/login', user.email, user.password, /^Anmelden$/);
    await page.waitForURL(/\/de(\/account\/subscription\/choose-plan)?$/);
    expect((await api(page, '/users/me', { method: 'PATCH', body: { country: 'DE' } })).status).toBe(200);

    // The catalogue in German (Paddle custom_data.i18n.de).
    await openInApp(page, '/de/perpetual');
    await shown(page.getByRole('article', { name: 'Shapelab 2025' }).getByText('Die Version 2025 zum Behalten, mit ihren Updates.', { exact: true }));
    expect(await page.getByText('The 2025 release to keep, with its updates.').count()).toBe(0);

    // A consumer: the region dialog starts from the profile's country and asks only for the postcode.
    await openInApp(page, `/de/checkout-new/perpetual/${PRICE_IDS.perpetual2024}`);
    await checkoutReady(page);
    await page.getByRole('button', { name: 'Region und USt-IdNr.' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel(/^Land/).inputValue()).toBe('DE');
    expect(await dialog.getByLabel('Ich kaufe als Unternehmen').isChecked()).toBe(false);
    expect(await dialog.getByLabel('Firmenname').count()).toBe(0);
    expect(await dialog.getByLabel('USt-IdNr.').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await shown(dialog.getByText('Dieses Feld ist erforderlich.'));
    await dialog.getByLabel('Postleitzahl').fill('10117');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.waitFor({ state: 'detached' });
    // 249.00 plus 19% German VAT: a consumer pays the tax.
    await expect.poll(() => page.getByTestId('checkout-dueToday').textContent()).toBe('296,31\u00a0$');
    await payWith(page, SUCCESS_CARD);
    await page.waitForURL(/\/de\/perpetual\/success$/);

    // Then as a business with a VAT number, on billing info: reverse-charged, no tax.
    await openInApp(page, '/de/account/billing-info');
    const form = page.getByTestId('billing-info');
    await expect.poll(() => form.getByLabel('Postleitzahl').inputValue()).toBe('10117');
    await form.getByLabel('Ich kaufe als Unternehmen').check();
    await form.getByLabel('Firmenname').fill('Analytical Engines GmbH');
    await form.getByLabel('USt-IdNr.').fill('DE136695976');
    await form.getByRole('button', { name: 'Speichern' }).click();
    // A business's invoice carries its street and town.
    await shown(form.getByText('Dieses Feld ist erforderlich.'));
    await form.getByLabel('Straße').fill('Unter den Linden 1');
    await form.getByLabel(/^Ort/).fill('Berlin');
    await form.getByRole('button', { name: 'Speichern' }).click();
    await shown(page.getByRole('alert').getByText('Deine Rechnungsdaten sind gespeichert.'));
    await openInApp(page, `/de/checkout-new/perpetual/${PRICE_IDS.perpetual2025}`);
    await checkoutReady(page);
    // 299.00 with the upgrade discount of an owner of 2024 (40% off), and no tax: a German business with a VAT number is reverse-charged.
    await expect.poll(() => page.getByTestId('checkout-dueToday').textContent()).toBe('179,40\u00a0$');
    await payWith(page, SUCCESS_CARD);
    await page.waitForURL(/\/de\/perpetual\/success$/);

    // The 2024 licence goes back within 14 days.
    type Licence = { licenceId: string; release: string };
    let licences: Licence[] = [];
    await expect
      .poll(async () => {
        licences = (await api<Licence[]>(page, '/perpetual/license')).body;
        return licences.map((licence) => licence.release).sort();
      })
      .toEqual(['2024', '2025']);
    const returned = licences.find((licence) => licence.release === '2024');
    expect((await api(page, `/perpetual/license/${returned?.licenceId ?? ''}/return`, { method: 'POST' })).status).toBe(200);

    // Purchase history in German: status, invoice number and German names.
    type Row = { id: string; paymentStatus: string; invoiceNumber: string | null };
    let rows: Row[] = [];
    await expect
      .poll(
        async () => {
          rows = (await api<Row[]>(page, '/subscription/billing/invoice')).body;
          return rows.map((row) => row.paymentStatus).sort();
        },
        { timeout: 20_000 },
      )
      .toEqual(['paid', 'refunded']);
    await openInApp(page, '/de/account/purchase-history');
    const row2024 = page.getByRole('row').filter({ hasText: 'Shapelab 2024 Dauerlizenz' });
    const row2025 = page.getByRole('row').filter({ hasText: 'Shapelab 2025 Dauerlizenz' });
    await shown(row2024.getByTestId('purchase-status').getByText('Erstattet', { exact: true }));
    await shown(row2025.getByTestId('purchase-status').getByText('Bezahlt', { exact: true }));
    for (const row of rows) {
      expect(row.invoiceNumber).toMatch(/^SBX-\d+$/);
      expect(await page.getByTestId(`purchase-${row.id}`).getByTestId('purchase-invoice-number').textContent()).toBe(row.invoiceNumber);
    }
    // The tax of the consumer's purchase: 47.31 of 296.31.
    await shown(row2024.getByRole('cell', { name: '47,31\u00a0$', exact: true }));
    // The accessibility walk sees an empty history; the status chips and rows are checked here.
    expect(await seriousViolations(page)).toEqual([]);

    // The same in English, by cheap looks.
    await openInApp(page, '/en/account/purchase-history');
    await shown(page.getByRole('row').filter({ hasText: 'Shapelab 2024 perpetual licence' }).getByText('Refunded', { exact: true }));
    await shown(page.getByRole('row').filter({ hasText: 'Shapelab 2025 perpetual licence' }).getByText('Paid', { exact: true }));
    await openInApp(page, '/en/account/billing-info');
    await expect.poll(() => page.getByLabel("I'm buying as a business").isChecked()).toBe(true);

    // A 390 px phone: purchases are cards, and neither page is wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await openInApp(page, '/de/account/purchase-history');
    const cards = page.getByRole('list', { name: 'Kaufhistorie' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(2);
    await shown(cards.filter({ hasText: 'Shapelab 2024 Dauerlizenz' }).getByText('Erstattet', { exact: true }));
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await openInApp(page, '/de/account/billing-info');
    await expect.poll(() => page.getByLabel('Firmenname').inputValue()).toBe('Analytical Engines GmbH');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);
});
