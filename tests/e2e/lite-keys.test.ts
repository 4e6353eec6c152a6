import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, shown, url } from './browser.js';

/**
 * The admin's Shapelab Lite keys in Chromium (spec section 2: the unused keys list): a CSV import is
 * counted (imported, duplicates, invalid), the keys are found by prefix and exported as CSV.
 */
let browser: Browser;
let adminToken = '';
beforeAll(async () => {
  browser = await launchBrowser();
  const response = await fetch(url('/api/auth/admin-login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: inject('adminEmail'), password: inject('adminPassword') }),
  });
  adminToken = ((await response.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: {
    title: 'Shapelab Lite keys',
    search: 'Search by key prefix',
    imported: '2 imported, 1 duplicates, 1 invalid',
    total: '2 unused keys',
    export: 'Export CSV',
  },
  de: {
    title: 'Shapelab-Lite-Schlüssel',
    search: 'Nach Schlüsselanfang suchen',
    imported: '2 importiert, 1 doppelt, 1 ungültig',
    total: '2 unbenutzte Schlüssel',
    export: 'CSV exportieren',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`Shapelab Lite keys in Chromium (${language})`, () => {
    it('imports a CSV, finds the new keys by prefix and exports them', async () => {
      const { context, page, errors } = await newPage(browser);
      await context.addInitScript((token) => localStorage.setItem('token', token), adminToken);
      await page.goto(url(`/${language}/admin/shapelab-lite`));
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));

      const prefix = `LITE-${randomBytes(3).toString('hex').toUpperCase()}`;
      const csv = `key,channel\n${prefix}-0001,steam\n${prefix}-0002,viveport\n${prefix}-0001,steam\nnot a key,steam\n`;
      await page.getByTestId('lite-keys-file').setInputFiles({ name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await shown(page.getByRole('alert').getByText(texts.imported));

      await page.getByLabel(texts.search).fill(prefix.toLowerCase());
      await shown(page.getByTestId('lite-keys-total').getByText(texts.total));
      await shown(page.getByRole('cell', { name: `${prefix}-0001` }));
      await shown(page.getByRole('cell', { name: 'viveport' }));

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: texts.export }).click()]);
      expect(download.suggestedFilename()).toBe('shapelab-lite-keys.csv');
      const exported = (await readFile(await download.path(), 'utf8')).trim().split('\n');
      expect(exported[0]).toBe('key,channel,importedAt');
      expect(exported.slice(1).map((line) => line.split(',').slice(0, 2).join(',')).sort()).toEqual([`${prefix}-0001,steam`, `${prefix}-0002,viveport`]);
      expect(errors).toEqual([]);
    });
  });
}
