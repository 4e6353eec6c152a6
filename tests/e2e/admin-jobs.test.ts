import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { launchBrowser, newPage, shown, signIn, url } from './browser.js';

/**
 * The background jobs page in Chromium (issue 19, item 3): the admin opens it from the menu, sees how
 * many jobs wait, run and failed, and a failed job with its last error; filters by status (kept in the
 * address), tries the job again after confirming and sees it leave the failed list and run. A job that
 * is no longer failed when the admin confirms is refused with the server's reason.
 *
 * The server fails a job only after its last try against a broken mail server or Paddle, which the e2e
 * server has neither of; so the failed jobs are written straight into its database, as
 * tests/e2e/browser.ts writes users. The seeded one is a real mail job (to an address of its own), so
 * the retry is carried out by the server's worker and the mail lands in the development outbox.
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
    signIn: /sign in as administrator/i,
    menu: 'Background jobs',
    title: 'Background jobs',
    failedCount: 'Failed',
    filter: 'Status',
    kind: 'Mail',
    salesKind: 'Count sales for analytics',
    attempts: '5 of 5',
    statusFailed: 'Failed',
    retry: /^Try again: Mail created/,
    confirmTitle: 'Try this job again?',
    confirm: 'Try again',
    retried: 'Mail is queued again.',
    refused: 'Only a job that failed can be tried again; this one is waiting, running or done.',
  },
  de: {
    signIn: /als administrator anmelden/i,
    menu: 'Hintergrundaufträge',
    title: 'Hintergrundaufträge',
    failedCount: 'Fehlgeschlagen',
    filter: 'Status',
    kind: 'Mail',
    salesKind: 'Verkäufe für die Auswertung zählen',
    attempts: '5 von 5',
    statusFailed: 'Fehlgeschlagen',
    retry: /^Erneut versuchen: Mail, erstellt/,
    confirmTitle: 'Diesen Auftrag erneut versuchen?',
    confirm: 'Erneut versuchen',
    retried: 'Mail wartet wieder auf Ausführung.',
    refused: 'Nur ein fehlgeschlagener Auftrag kann erneut versucht werden; dieser wartet, läuft oder ist erledigt.',
  },
} as const;

interface Seeded {
  id: string;
  to: string;
  error: string;
}

/** A mail job that failed on its last try, as the worker leaves one (server/modules/jobs/queue.ts). */
async function seedFailedMailJob(kind = 'mail'): Promise<Seeded> {
  const tag = randomBytes(4).toString('hex');
  const seeded = { id: randomUUID(), to: `jobs-${tag}@example.com`, error: `550 5.1.1 mailbox unavailable (e2e ${tag})` };
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    const now = new Date();
    await db.kysely
      .insertInto('jobs')
      .values({
        id: seeded.id,
        kind,
        payload: JSON.stringify({ to: seeded.to, mail: { subject: `Retried ${tag}`, text: `Retried ${tag}`, html: `<p>Retried ${tag}</p>` } }),
        key: null,
        status: 'failed',
        attempts: 5,
        max_attempts: 5,
        run_at: now.toISOString(),
        locked_until: null,
        locked_by: null,
        last_error: seeded.error,
        created_at: new Date(now.getTime() - 1_000).toISOString(),
        finished_at: now.toISOString(),
      })
      .execute();
    return seeded;
  } finally {
    await db.destroy();
  }
}

/** Marks a seeded job done behind the page's back (another admin retried it and it ran). */
async function markDone(id: string): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    await db.kysely.updateTable('jobs').set({ status: 'done', last_error: null, finished_at: new Date().toISOString() }).where('id', '=', id).execute();
  } finally {
    await db.destroy();
  }
}

async function outbox(email: string): Promise<{ subject: string }[]> {
  const response = await fetch(url(`/api/dev/outbox?to=${encodeURIComponent(email)}`));
  return (await response.json()) as { subject: string }[];
}

const rowOf = (page: Page, seeded: Seeded) => page.locator(`[data-testid="job-row"][data-job-id="${seeded.id}"]`);

async function count(page: Page, status: 'pending' | 'running' | 'failed'): Promise<number> {
  const text = (await page.getByTestId(`jobs-count-${status}`).locator('p').last().textContent()) ?? '';
  return Number(text.replace(/\D/g, ''));
}

/** The next `GET /api/admin/jobs` whose query passes `check`, once `action` has run. */
async function listRequest(page: Page, action: () => Promise<unknown>, check: (query: URLSearchParams) => boolean) {
  const response = page.waitForResponse((candidate) => {
    const address = new URL(candidate.url());
    return address.pathname === '/api/admin/jobs' && candidate.request().method() === 'GET' && check(address.searchParams);
  });
  await action();
  expect((await response).status()).toBe(200);
}

async function openFromMenu(page: Page, language: 'en' | 'de') {
  const texts = TEXTS[language];
  await signIn(page, `/${language}/admin/login`, inject('adminEmail'), inject('adminPassword'), texts.signIn);
  await page.waitForURL((address) => address.pathname === `/${language}/admin/users`);
  await page.getByRole('navigation').getByRole('link', { name: texts.menu, exact: true }).click();
  await page.waitForURL((address) => address.pathname === `/${language}/admin/jobs`);
  await shown(page.getByRole('heading', { level: 1, name: texts.title }));
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`background jobs page in Chromium (${language})`, () => {
    it('shows the counts and a failed job with its error, filters by status in the address, and tries it again after confirming', async () => {
      const seeded = await seedFailedMailJob();
      const { page, errors } = await newPage(browser);
      await openFromMenu(page, language);

      // The counts at the top: the seeded failure is among the failed.
      await shown(page.getByTestId('jobs-count-failed').getByText(texts.failedCount, { exact: true }));
      expect(await count(page, 'failed')).toBeGreaterThanOrEqual(1);
      expect(await count(page, 'pending')).toBeGreaterThanOrEqual(0);

      // The failed job, with its kind, status, tries and last error.
      const row = rowOf(page, seeded);
      await shown(row.getByText(seeded.error));
      // A table's cells on a wide screen, a card's values where the table does not fit (src/components/ResponsiveTable.tsx).
      await shown(row.getByText(texts.kind, { exact: true }));
      await shown(row.getByText(texts.statusFailed, { exact: true }));
      await shown(row.getByText(texts.attempts, { exact: true }));

      // Only the failed ones, the filter in the address (and kept by a reload).
      await listRequest(page, () => page.getByLabel(texts.filter, { exact: true }).selectOption('failed'), (query) => query.get('status') === 'failed');
      await page.waitForURL((address) => address.searchParams.get('status') === 'failed');
      await page.reload();
      await shown(row.getByText(seeded.error));
      await expect(page.getByLabel(texts.filter, { exact: true }).inputValue()).resolves.toBe('failed');
      for (const chip of await page.locator('[data-testid="job-row"] .MuiChip-label').allTextContents()) expect(chip).toBe(texts.statusFailed);

      // Try again, confirmed: the server takes it, the list is read again and the job is gone from it.
      await row.getByRole('button', { name: texts.retry }).click();
      const dialog = page.getByRole('dialog', { name: texts.confirmTitle });
      await shown(dialog);
      const retried = page.waitForResponse((response) => response.url().endsWith(`/api/admin/jobs/${seeded.id}/retry`) && response.request().method() === 'POST');
      await dialog.getByRole('button', { name: texts.confirm, exact: true }).click();
      expect((await retried).status()).toBe(200);
      await shown(page.getByRole('alert').getByText(texts.retried));
      await dialog.waitFor({ state: 'hidden' });
      await row.waitFor({ state: 'detached', timeout: 10_000 });

      // The server's worker ran it: the mail went out, and the whole list shows the job no longer failed.
      await expect.poll(async () => (await outbox(seeded.to)).length, { timeout: 10_000 }).toBe(1);
      await listRequest(page, () => page.getByLabel(texts.filter, { exact: true }).selectOption('all'), (query) => !query.has('status'));
      await page.waitForURL((address) => !address.searchParams.has('status'));
      await shown(row);
      await expect(row.getByText(texts.statusFailed, { exact: true }).count()).resolves.toBe(0);
      expect(errors).toEqual([]);
    });

    it('names every job for people, not by its internal kind (issue 48 item 11)', async () => {
      const seeded = await seedFailedMailJob('analytics-sales');
      const { page, errors } = await newPage(browser);
      await openFromMenu(page, language);
      const row = rowOf(page, seeded);
      await shown(row.getByText(texts.salesKind, { exact: true }));
      expect(await row.getByText('analytics-sales').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a job that is no longer failed when the admin confirms is refused with the server’s reason', async () => {
      const seeded = await seedFailedMailJob();
      const { page, errors } = await newPage(browser);
      await openFromMenu(page, language);
      const row = rowOf(page, seeded);
      await shown(row.getByText(seeded.error));

      await row.getByRole('button', { name: texts.retry }).click();
      const dialog = page.getByRole('dialog', { name: texts.confirmTitle });
      await shown(dialog);
      await markDone(seeded.id);
      const refused = page.waitForResponse((response) => response.url().endsWith(`/api/admin/jobs/${seeded.id}/retry`));
      await dialog.getByRole('button', { name: texts.confirm, exact: true }).click();
      expect((await refused).status()).toBe(409);
      await shown(page.getByRole('alert').getByText(texts.refused));
      await dialog.waitFor({ state: 'hidden' });
      // Read again, the job shows as it is now: done, nothing to try again.
      await expect.poll(() => row.getByRole('button', { name: texts.retry }).count()).toBe(0);
      expect(errors).toEqual([]);
    });
  });
}
