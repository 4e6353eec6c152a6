import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { launchBrowser, newPage, shown, signIn } from './browser.js';

/**
 * Issue 21 item 2 in Chromium, in English and German: the users grid's filters (kept in the address
 * across a reload), the CSV export of the filtered list, bulk role changes after one confirmation that
 * names the count, and a row opening the user's page. Every user here carries the file's tag, so the
 * grid is searched down to them (runs in e2e-own-server: it changes roles of users it lists).
 */
const TAG = randomBytes(3).toString('hex');

interface Seed {
  id: string;
  email: string;
  verified: boolean;
  newsletter: boolean;
  plan: 'free' | 'trial' | 'subscriber';
  createdAt: string;
}

function seedsFor(language: string): Seed[] {
  return Array.from({ length: 12 }, (_, i) => ({
    id: randomUUID(),
    email: `tools${TAG}${language}-${String(i).padStart(2, '0')}@example.com`,
    verified: i % 3 !== 0,
    newsletter: i % 2 === 0,
    plan: (['free', 'trial', 'subscriber'] as const)[i % 3] as Seed['plan'],
    createdAt: new Date(Date.UTC(2025, 2, 1 + i)).toISOString(),
  }));
}

/** Accounts written straight into the server's database, their plans through subscription rows. */
async function insertUsers(seeds: Seed[]): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    await db.kysely.transaction().execute(async (trx) => {
      for (const seed of seeds) {
        await trx
          .insertInto('users')
          .values({
            id: seed.id,
            email: seed.email,
            password_hash: null,
            first_name: 'Tool',
            last_name: seed.email.slice(-15, -12),
            email_verified_at: seed.verified ? seed.createdAt : null,
            signup_source: 'e2e',
            created_at: seed.createdAt,
            updated_at: seed.createdAt,
            newsletter: seed.newsletter ? 1 : 0,
          })
          .execute();
        await trx.insertInto('user_roles').values({ user_id: seed.id, role: 'user' }).execute();
        if (seed.plan !== 'free') {
          await trx
            .insertInto('subscriptions')
            .values({
              id: `sub_${seed.id}`,
              customer_id: `ctm_${seed.id}`,
              user_id: seed.id,
              status: seed.plan === 'trial' ? 'trialing' : 'active',
              price_id: 'pri_e2e',
              billing_interval: 'month',
              currency_code: 'USD',
              created_at: seed.createdAt,
              last_event_at: seed.createdAt,
            })
            .execute();
        }
      }
    });
  } finally {
    await db.destroy();
  }
}

async function adminIds(ids: string[]): Promise<string[]> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    return (await db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').where('user_id', 'in', ids).execute()).map((row) => row.user_id).sort();
  } finally {
    await db.destroy();
  }
}

const TEXTS = {
  en: {
    prefix: '/en',
    signIn: /sign in as administrator/i,
    title: 'Users',
    search: 'Search by name or email (starts with)',
    verified: 'Verified',
    newsletter: 'Subscribed news',
    plan: 'Plan',
    yes: 'Yes',
    trial: 'Trial',
    any: 'Any',
    rows: (count: number) => `1–${count} of ${count}`,
    export: 'Export CSV',
    selectRow: 'Select row',
    makeAdmin: 'Make admin',
    confirmTitle: (count: number) => `Make ${count} users admins?`,
    done: (count: number) => `${count} users changed.`,
  },
  de: {
    prefix: '/de',
    signIn: /als administrator anmelden/i,
    title: 'Benutzer',
    search: 'Nach Name oder E-Mail suchen (Anfang)',
    verified: 'Bestätigt',
    newsletter: 'Newsletter',
    plan: 'Tarif',
    yes: 'Ja',
    trial: 'Testzeitraum',
    any: 'Alle',
    rows: (count: number) => `1–${count} von ${count}`,
    export: 'CSV exportieren',
    selectRow: 'Zeile auswählen',
    makeAdmin: 'Zum Admin machen',
    confirmTitle: (count: number) => `${count} Benutzer zu Admins machen?`,
    done: (count: number) => `${count} Benutzer geändert.`,
  },
} as const;
type Texts = (typeof TEXTS)[keyof typeof TEXTS];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/** The next `GET /api/users` whose query passes `check`, once `action` has run. */
async function listRequest(page: Page, action: () => Promise<unknown>, check: (query: URLSearchParams) => boolean): Promise<URLSearchParams> {
  const response = page.waitForResponse((candidate) => {
    const address = new URL(candidate.url());
    return address.pathname === '/api/users' && candidate.request().method() === 'GET' && check(address.searchParams);
  });
  await action();
  const answered = await response;
  expect(answered.status()).toBe(200);
  return new URL(answered.url()).searchParams;
}

const footer = (page: Page) => page.locator('.MuiTablePagination-displayedRows').textContent();
const emails = (page: Page) => page.locator('.MuiDataGrid-row [data-field="email"]').allTextContents();

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

for (const language of ['en', 'de'] as const) {
  const texts: Texts = TEXTS[language];

  describe(`admin users grid tools in Chromium (${language})`, () => {
    const seeds = seedsFor(language);
    const prefix = `tools${TAG}${language}`;
    const newestFirst = [...seeds].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    beforeAll(async () => {
      await insertUsers(seeds);
    });

    it('filters (kept across a reload), exports the filtered rows as CSV, changes roles in bulk after one confirmation, and a row opens the user page', async () => {
      const { page, errors } = await newPage(browser);
      await signIn(page, `${texts.prefix}/admin/login`, inject('adminEmail'), inject('adminPassword'), texts.signIn);
      await page.waitForURL((address) => address.pathname === `${texts.prefix}/admin/users`);
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));

      await listRequest(page, () => page.getByLabel(texts.search).fill(prefix), (q) => q.get('search') === prefix);
      await expect.poll(() => footer(page)).toBe(texts.rows(seeds.length));

      // Verified = yes, then plan = trial: each a request with the filter, the address keeping it.
      const verified = newestFirst.filter((seed) => seed.verified);
      const query = await listRequest(page, () => choose(page, texts.verified, texts.yes), (q) => q.get('verified') === 'true');
      expect(Object.fromEntries(query)).toEqual({ skip: '0', take: '25', search: prefix, verified: 'true' });
      await expect.poll(() => footer(page)).toBe(texts.rows(verified.length));
      const trial = verified.filter((seed) => seed.plan === 'trial');
      await listRequest(page, () => choose(page, texts.plan, texts.trial), (q) => q.get('verified') === 'true' && q.get('plan') === 'trial');
      await expect.poll(() => emails(page)).toEqual(trial.map((seed) => seed.email));
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ q: prefix, verified: 'true', plan: 'trial' });

      // A reload shows the same filtered list, and the selects say so.
      const reloaded = await listRequest(page, () => page.reload(), (q) => q.get('search') === prefix);
      expect(Object.fromEntries(reloaded)).toEqual({ skip: '0', take: '25', search: prefix, verified: 'true', plan: 'trial' });
      await expect.poll(() => emails(page)).toEqual(trial.map((seed) => seed.email));
      await expect(page.getByRole('combobox', { name: texts.verified }).textContent()).resolves.toBe(texts.yes);
      await expect(page.getByRole('combobox', { name: texts.plan }).textContent()).resolves.toBe(texts.trial);

      // Back to every plan: the verified ones. The export holds exactly those, in the grid's order.
      await listRequest(page, () => choose(page, texts.plan, texts.any), (q) => q.get('verified') === 'true' && !q.has('plan'));
      await expect.poll(() => footer(page)).toBe(texts.rows(verified.length));
      const exported = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/export');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: texts.export }).click();
      const exportQuery = Object.fromEntries(new URL((await exported).url()).searchParams);
      expect(exportQuery).toEqual({ search: prefix, verified: 'true' });
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^shapelab-users-\d{4}-\d{2}-\d{2}\.csv$/);
      const rows = parse(await readFile((await file.path()) as string, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.map((row) => row.email)).toEqual(verified.map((seed) => seed.email));
      expect(rows.every((row) => row.emailVerified === 'true')).toBe(true);

      // Select two rows, make them admins: one confirmation naming the count, one request.
      const chosen = verified.slice(0, 2);
      for (const seed of chosen) {
        await page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: seed.email, exact: true }) }).getByRole('checkbox', { name: texts.selectRow }).check();
      }
      await page.getByRole('toolbar').getByRole('button', { name: texts.makeAdmin }).click();
      const dialog = page.getByRole('dialog', { name: texts.confirmTitle(2) });
      await shown(dialog);
      const bulk = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/bulk');
      await dialog.getByRole('button', { name: texts.makeAdmin }).click();
      const answer = await bulk;
      expect(answer.request().postDataJSON()).toEqual({ action: 'grant-admin', ids: chosen.map((seed) => seed.id) });
      await shown(page.getByRole('alert').getByText(texts.done(2)));
      expect(await adminIds(seeds.map((seed) => seed.id))).toEqual(chosen.map((seed) => seed.id).sort());
      for (const seed of chosen) {
        await expect
          .poll(() => page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: seed.email, exact: true }) }).locator('[data-field="isAdmin"]').textContent())
          .toBe(texts.yes);
      }

      expect(errors).toEqual([]);
      // A click on a row (not its checkbox, link or menu) opens the user's page.
      const target = verified[2] as Seed;
      await page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: target.email, exact: true }) }).locator('[data-field="lastName"]').click();
      await page.waitForURL((address) => address.pathname === `${texts.prefix}/admin/users/${target.id}`);
    }, 120_000);
  });
}
