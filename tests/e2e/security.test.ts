import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newContext, newPage, shown, signIn, url } from './browser.js';

/**
 * Issue 17 in the browser, en and de: the security page lists the sessions of two browsers and signs the
 * other one out (its next navigation lands on the sign-in page); deleting the account after the typed
 * confirmation ends on the sign-in page and frees the address; "download my data" saves a JSON file.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: {
    signIn: /^sign in$/i,
    thisDevice: 'This device',
    signOut: /^sign out the session of/i,
    confirmSignOut: /^sign out$/i,
    signedOut: 'The session was signed out.',
    delete: /^delete my account$/i,
    word: 'DELETE',
    typeToConfirm: /type delete to confirm/i,
    password: /current password/i,
    deleteForever: /delete my account for good/i,
    deleted: 'Your account has been deleted.',
    download: /download my data/i,
  },
  de: {
    signIn: /^anmelden$/i,
    thisDevice: 'Dieses Gerät',
    signOut: /^die sitzung von .* abmelden$/i,
    confirmSignOut: /^abmelden$/i,
    signedOut: 'Die Sitzung wurde abgemeldet.',
    delete: /^mein konto löschen$/i,
    word: 'LÖSCHEN',
    typeToConfirm: /gib löschen ein/i,
    password: /aktuelles passwort/i,
    deleteForever: /mein konto endgültig löschen/i,
    deleted: 'Dein Konto wurde gelöscht.',
    download: /meine daten herunterladen/i,
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];
  describe(`security and your data [${language}]`, () => {
    it('lists the sessions of two browsers and signs the other one out: its next navigation lands on the sign-in page', async () => {
      const user = await createVerifiedUser(language);
      const laptop = await newPage(browser, await newContext(browser, { locale: language }));
      const phone = await newPage(browser, await newContext(browser, { locale: language, userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' }));
      try {
        for (const { page } of [phone, laptop]) {
          await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
          await page.waitForURL(/\/account\/|\/choose-plan|\/(en|de)$/, { timeout: 15_000 });
        }
        await laptop.page.goto(url(`/${language}/account/security`));
        await shown(laptop.page.getByTestId('session-current'));
        await expect.poll(() => laptop.page.getByTestId('session-other').count()).toBe(1);
        await shown(laptop.page.getByTestId('session-current').getByText(texts.thisDevice));
        await shown(laptop.page.getByTestId('session-other').getByText(/Firefox 133/));
        await laptop.page.getByRole('button', { name: texts.signOut }).click();
        await laptop.page.getByRole('dialog').getByRole('button', { name: texts.confirmSignOut }).click();
        await shown(laptop.page.getByText(texts.signedOut));
        await expect.poll(() => laptop.page.getByTestId('session-other').count()).toBe(0);

        await phone.page.goto(url(`/${language}/account/profile`));
        await phone.page.waitForURL(/\/login/, { timeout: 15_000 });
        await laptop.page.goto(url(`/${language}/account/profile`));
        await shown(laptop.page.locator('h1'));
        expect(laptop.page.url()).toMatch(/\/account\/profile$/);
        expect([...laptop.errors, ...phone.errors]).toEqual([]);
      } finally {
        await laptop.context.close();
        await phone.context.close();
      }
    });

    it('downloads the user’s data as a JSON file', async () => {
      const user = await createVerifiedUser(language);
      const { context, page, errors } = await newPage(browser, await newContext(browser, { locale: language, acceptDownloads: true }));
      try {
        await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
        await page.waitForURL(/\/account\/|\/choose-plan|\/(en|de)$/, { timeout: 15_000 });
        await page.goto(url(`/${language}/account/profile`));
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: texts.download }).click()]);
        expect(download.suggestedFilename()).toMatch(/^shapelab-data-\d{4}-\d{2}-\d{2}\.json$/);
        const saved = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as { profile: { email: string }; sessions: unknown[] };
        expect(saved.profile.email).toBe(user.email);
        expect(saved.sessions.length).toBeGreaterThanOrEqual(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('deletes the account after the typed confirmation, ends on the sign-in page, and the email can register again', async () => {
      const user = await createVerifiedUser(language);
      const { context, page, errors } = await newPage(browser, await newContext(browser, { locale: language }));
      try {
        await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
        await page.waitForURL(/\/account\/|\/choose-plan|\/(en|de)$/, { timeout: 15_000 });
        await page.goto(url(`/${language}/account/profile`));
        await page.getByRole('button', { name: texts.delete }).click();
        const dialog = page.getByRole('dialog');
        const confirm = dialog.getByRole('button', { name: texts.deleteForever });
        expect(await confirm.isDisabled()).toBe(true);
        await dialog.getByLabel(texts.typeToConfirm).fill(texts.word);
        await dialog.getByLabel(texts.password).fill(user.password);
        await confirm.click();
        await page.waitForURL(/\/login\?deleted=1/, { timeout: 15_000 });
        await shown(page.getByText(texts.deleted));
        const again = await fetch(url('/api/users'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: user.email, password: 'a fresh start 42', firstName: 'New', lastName: 'Start', privacyAccepted: true }),
        });
        expect(again.status, await again.text()).toBe(201);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
}
