import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { USER_SORT_FIELDS, type UserSortField } from '../../contract/users.js';
import { openDatabase } from '../../server/db/index.js';
import { testPasswordHash } from '../fixtures/password-hash.js';
import { apiLogin, launchBrowser, newContext, newPage, shown, signIn, url } from './browser.js';
import { PHONE } from './route-walk.js';

/**
 * The admin users list in Chromium (issue 9; spec sections 2 and 6): 250 seeded users sorted by every
 * column, paged and searched on the server, the view kept in the address across a reload; a role change
 * and a deletion after confirming, shown at once and rolled back when the server refuses; the audit
 * trail; and the admin area closed to a plain user. The main flow runs in English and German.
 */
const TAG = randomBytes(3).toString('hex');
/** Every seeded email starts with this, so searching it shows exactly the 250 seeded users. */
const PREFIX = `grid${TAG}`;
const PASSWORD = 'grid password 42';
const SEEDED = 250;
/** Ten seeded users have each first name; none of the other tests' users has one of them. */
const FIRST_NAMES = ['Ada', 'Bruno', 'Cleo', 'Dario', 'Edda', 'Fritz', 'Greta', 'Hugo', 'Ilse', 'Jonas', 'Kaja', 'Lenz', 'Mira', 'Nils', 'Olga', 'Paul', 'Quirin', 'Rosa', 'Sven', 'Thea', 'Ulla', 'Veit', 'Wanda', 'Xaver', 'Yvette'];
const LAST_NAMES = ['Abel', 'Berg', 'Claus', 'Dorn', 'Eck', 'Fink', 'Graf', 'Horn', 'Imhof', 'Jung', 'Kranz', 'Lang', 'Moser', 'Nagel', 'Ott'];

interface Seed {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  verifiedAt: string | null;
  google: boolean;
  facebook: boolean;
  newsletter: boolean;
  createdAt: string;
  downloadedAt: string | null;
  lastLaunchedAt: string | null;
  admin: boolean;
}

const at = (day: number, minutes: number) => new Date(Date.UTC(2025, 0, 1 + day, 8, minutes)).toISOString();

function gridSeed(i: number): Seed {
  return {
    id: randomUUID(),
    email: `${PREFIX}-${String(i).padStart(3, '0')}@example.com`,
    firstName: FIRST_NAMES[(i * 7) % FIRST_NAMES.length] as string,
    lastName: LAST_NAMES[(i * 11) % LAST_NAMES.length] as string,
    verifiedAt: i % 4 === 0 ? null : at((i * 13) % 200, i % 60),
    google: i % 7 === 0,
    facebook: i % 11 === 3,
    newsletter: i % 3 === 1,
    createdAt: at((i * 37) % 300, (i * 17) % 60),
    downloadedAt: i % 5 === 2 ? null : at((i * 29) % 310, i % 50),
    lastLaunchedAt: i % 2 === 0 ? null : at((i * 41) % 320, (i * 3) % 60),
    admin: i % 60 === 5,
  };
}

/** Accounts written straight into the server's database, as tests/e2e/browser.ts does for one user. */
async function insertUsers(seeds: Seed[]): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    const passwordHash = await testPasswordHash(PASSWORD);
    await db.kysely.transaction().execute(async (trx) => {
      for (let start = 0; start < seeds.length; start += 50) {
        const batch = seeds.slice(start, start + 50);
        await trx
          .insertInto('users')
          .values(
            batch.map((seed) => ({
              id: seed.id,
              email: seed.email,
              password_hash: passwordHash,
              first_name: seed.firstName,
              last_name: seed.lastName,
              email_verified_at: seed.verifiedAt,
              signup_source: 'e2e',
              created_at: seed.createdAt,
              updated_at: seed.createdAt,
              newsletter: seed.newsletter ? 1 : 0,
              downloaded_at: seed.downloadedAt,
              last_launched_at: seed.lastLaunchedAt,
            })),
          )
          .execute();
        await trx
          .insertInto('user_roles')
          .values(batch.flatMap((seed) => [{ user_id: seed.id, role: 'user' }, ...(seed.admin ? [{ user_id: seed.id, role: 'admin' }] : [])]))
          .execute();
        const social = batch.flatMap((seed) => [
          ...(seed.google ? [{ provider: 'google', subject: `g-${seed.id}`, user_id: seed.id, email: seed.email, created_at: seed.createdAt }] : []),
          ...(seed.facebook ? [{ provider: 'facebook', subject: `f-${seed.id}`, user_id: seed.id, email: seed.email, created_at: seed.createdAt }] : []),
        ]);
        if (social.length > 0) await trx.insertInto('social_accounts').values(social).execute();
      }
    });
  } finally {
    await db.destroy();
  }
}

/** A plain verified user of its own for a test that changes or deletes it. */
async function plainUser(name: string): Promise<Seed> {
  const seed: Seed = { ...gridSeed(1), id: randomUUID(), email: `mut${TAG}-${name}@example.com`, firstName: 'Mut', lastName: name, admin: false };
  await insertUsers([seed]);
  return seed;
}

/** The value each column sorts by on the server (booleans as 0/1; verified by the verification time). */
function sortValue(seed: Seed, field: UserSortField): string | number | null {
  switch (field) {
    case 'firstName':
      return seed.firstName;
    case 'lastName':
      return seed.lastName;
    case 'email':
      return seed.email;
    case 'emailVerified':
      return seed.verifiedAt;
    case 'googleConnected':
      return Number(seed.google);
    case 'facebookConnected':
      return Number(seed.facebook);
    case 'newsletter':
      return Number(seed.newsletter);
    case 'createdAt':
      return seed.createdAt;
    case 'downloadedAt':
      return seed.downloadedAt;
    case 'lastLaunchedAt':
      return seed.lastLaunchedAt;
    case 'isAdmin':
      return Number(seed.admin);
  }
}

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** The order the API promises: by the column, ties by id, NULLs first ascending (SQLite's order). */
function sorted(seeds: Seed[], field: UserSortField, order: 'asc' | 'desc'): Seed[] {
  const direction = order === 'asc' ? 1 : -1;
  return [...seeds].sort((a, b) => direction * (compare(sortValue(a, field), sortValue(b, field)) || compare(a.id, b.id)));
}

const TEXTS = {
  en: {
    prefix: '',
    signIn: /sign in as administrator/i,
    title: 'Users',
    search: 'Search by name or email (starts with)',
    headers: ['First name', 'Last name', 'Email', 'Verified', 'Google connected', 'Facebook connected', 'Subscribed news', 'Registered on', 'Downloaded', 'Last launched', 'Admin', 'Manage'],
    rows: (from: number, to: number, count: number) => `${from}–${to} of ${count}`,
    next: 'Go to next page',
    rowsPerPage: 'Rows per page:',
    yes: 'Yes',
    no: 'No',
    promote: (email: string) => `Make ${email} an admin`,
    remove: (email: string) => `Delete ${email}`,
    history: (email: string) => `History of ${email}`,
    confirmPromote: 'Make admin',
    confirmDelete: 'Delete user',
    promoted: (email: string) => `${email} is now an admin.`,
    deleted: (email: string) => `${email} was deleted.`,
    lastAdmin: 'The last admin cannot be removed or demoted.',
    notFound: 'User not found.',
    rolesChanged: 'Roles changed from User to Admin, User',
    close: 'Close',
    columnMenu: 'Menu',
    manageColumns: 'Manage columns',
    showAll: 'Show/Hide All',
    rowActions: 'Actions',
    phone: {
      sortBy: 'Sort by',
      email: 'Email',
      order: 'Order',
      descending: 'Descending',
      nextPage: 'Next page',
      perPage: 'Per page',
      select: (email: string) => `Select ${email}`,
      selectPage: 'Select all on this page',
      selected: (count: number) => `${count} users selected`,
      actionsFor: (email: string) => `Actions for ${email}`,
      verified: 'Verified',
      unverified: 'Not verified',
    },
  },
  de: {
    prefix: '/de',
    signIn: /als administrator anmelden/i,
    title: 'Benutzer',
    search: 'Nach Name oder E-Mail suchen (Anfang)',
    headers: ['Vorname', 'Nachname', 'E-Mail', 'Bestätigt', 'Google verbunden', 'Facebook verbunden', 'Newsletter', 'Registriert am', 'Heruntergeladen', 'Zuletzt gestartet', 'Admin', 'Verwalten'],
    rows: (from: number, to: number, count: number) => `${from}–${to} von ${count}`,
    next: 'Zur nächsten Seite',
    rowsPerPage: 'Zeilen pro Seite:',
    yes: 'Ja',
    no: 'Nein',
    promote: (email: string) => `${email} zum Admin machen`,
    remove: (email: string) => `${email} löschen`,
    history: (email: string) => `Verlauf von ${email}`,
    confirmPromote: 'Zum Admin machen',
    confirmDelete: 'Benutzer löschen',
    promoted: (email: string) => `${email} ist jetzt Admin.`,
    deleted: (email: string) => `${email} wurde gelöscht.`,
    lastAdmin: 'Der letzte Admin kann weder entfernt noch herabgestuft werden.',
    notFound: 'Benutzer nicht gefunden.',
    rolesChanged: 'Rollen geändert von Benutzer zu Admin, Benutzer',
    close: 'Schließen',
    columnMenu: 'Menü',
    manageColumns: 'Spalten verwalten',
    showAll: 'Alle anzeigen/verbergen',
    rowActions: 'Aktionen',
    phone: {
      sortBy: 'Sortieren nach',
      email: 'E-Mail',
      order: 'Reihenfolge',
      descending: 'Absteigend',
      nextPage: 'Nächste Seite',
      perPage: 'Pro Seite',
      select: (email: string) => `${email} auswählen`,
      selectPage: 'Alle auf dieser Seite auswählen',
      selected: (count: number) => `${count} Benutzer ausgewählt`,
      actionsFor: (email: string) => `Aktionen für ${email}`,
      verified: 'Bestätigt',
      unverified: 'Nicht bestätigt',
    },
  },
} as const;
type Texts = (typeof TEXTS)[keyof typeof TEXTS];

let browser: Browser;
let adminToken = '';
const seeds: Seed[] = Array.from({ length: SEEDED }, (_, i) => gridSeed(i));

async function accessToken(email: string, password: string, admin = false): Promise<string> {
  const response = await fetch(url(admin ? '/api/auth/admin-login' : '/api/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, `sign-in of ${email}`).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function listStatus(token: string): Promise<number> {
  const response = await fetch(url('/api/users?skip=0&take=1'), { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

beforeAll(async () => {
  browser = await launchBrowser();
  await insertUsers(seeds);
  adminToken = await accessToken(inject('adminEmail'), inject('adminPassword'), true);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/** The next `GET /api/users` the page sends whose query passes `check`, once `action` has run. */
async function listRequest(page: Page, action: () => Promise<unknown>, check: (query: URLSearchParams) => boolean = () => true): Promise<URLSearchParams> {
  const response = page.waitForResponse((candidate) => {
    const address = new URL(candidate.url());
    return address.pathname === '/api/users' && candidate.request().method() === 'GET' && check(address.searchParams);
  });
  await action();
  const answered = await response;
  expect(answered.status()).toBe(200);
  return new URL(answered.url()).searchParams;
}

const grid = (page: Page) => page.getByRole('grid');
const cell = (page: Page, row: number, field: string) => page.locator(`.MuiDataGrid-row[data-rowindex="${row}"] [data-field="${field}"]`);
const firstEmail = (page: Page) => cell(page, 0, 'email').textContent();
const footer = (page: Page) => page.locator('.MuiTablePagination-displayedRows').textContent();
const rowOf = (page: Page, email: string) => page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: email, exact: true }) });

/** Issue 21: a row's actions sit in its menu; opens it and picks `name`. */
async function rowAction(page: Page, texts: Texts, email: string, name: string) {
  await rowOf(page, email).getByRole('menuitem', { name: texts.rowActions }).click();
  const item = page.getByRole('menu').getByRole('menuitem', { name });
  await item.click();
}

/** Issue 21: some columns start hidden; the column menu's "Manage columns" shows them all. */
async function showAllColumns(page: Page, texts: Texts) {
  const header = grid(page).locator('[role="columnheader"][data-field="email"]');
  await header.hover();
  await header.getByRole('button', { name: texts.columnMenu }).click();
  await page.getByRole('menuitem', { name: texts.manageColumns }).click();
  await page.getByRole('checkbox', { name: texts.showAll }).check();
  await page.keyboard.press('Escape');
}

async function signInAsAdmin(page: Page, texts: Texts) {
  await signIn(page, `${texts.prefix}/admin/login`, inject('adminEmail'), inject('adminPassword'), texts.signIn);
  await page.waitForURL((address) => address.pathname === `${texts.prefix}/admin/users`);
  await shown(page.getByRole('heading', { level: 1, name: texts.title }));
}

async function search(page: Page, texts: Texts, text: string) {
  return listRequest(page, () => page.getByLabel(texts.search).fill(text), (query) => query.get('search') === text);
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`admin users list in Chromium (${language})`, () => {
    it('on a 390 px phone lists cards, sorted, paged and selected as the grid does, with each card\'s actions, and never loads the grid\'s code', async () => {
      const context = await newContext(browser, { locale: 'en-US', viewport: PHONE, isMobile: true, hasTouch: true });
      await context.addInitScript((token) => localStorage.setItem('token', token), adminToken);
      const page = await context.newPage();
      const gridCode: string[] = [];
      page.on('request', (request) => {
        if (/\/UsersGrid-[\w-]+\.js$/.test(request.url())) gridCode.push(request.url());
      });
      const phone = texts.phone;
      await page.goto(url(`${texts.prefix}/admin/users`));
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
      const cards = page.getByRole('list', { name: texts.title }).getByRole('listitem');
      const cardOf = (email: string) => cards.filter({ hasText: email });

      await search(page, texts, PREFIX);
      await listRequest(page, async () => {
        await page.getByRole('combobox', { name: new RegExp(`^${phone.sortBy}`) }).click();
        await page.getByRole('option', { name: phone.email, exact: true }).click();
      }, (query) => query.get('sortField') === 'email' && query.get('sortDirection') === 'asc');
      await listRequest(page, async () => {
        await page.getByRole('combobox', { name: new RegExp(`^${phone.order}`) }).click();
        await page.getByRole('option', { name: phone.descending }).click();
      }, (query) => query.get('sortField') === 'email' && query.get('sortDirection') === 'desc');
      const byEmail = sorted(seeds, 'email', 'desc');
      // A page of 25 cards, drawn five at a time, in the server's order; the view is kept in the address.
      await expect.poll(() => cards.count()).toBe(25);
      await expect.poll(() => cards.first().textContent()).toContain((byEmail[0] as Seed).email);
      await expect(cards.nth(24).textContent()).resolves.toContain((byEmail[24] as Seed).email);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ q: PREFIX, sort: 'email', order: 'desc' });
      await expect.poll(() => footer(page)).toBe(texts.rows(1, 25, SEEDED));
      const first = byEmail[0] as Seed;
      await expect(cardOf(first.email).textContent()).resolves.toContain(first.verifiedAt ? phone.verified : phone.unverified);

      // The pager: the next page, then ten a page (back to the first).
      const second = await listRequest(page, () => page.getByRole('button', { name: phone.nextPage }).click());
      expect(second.get('skip')).toBe('25');
      await expect.poll(() => cards.first().textContent()).toContain((byEmail[25] as Seed).email);
      await listRequest(page, async () => {
        await page.getByRole('combobox', { name: new RegExp(`^${phone.perPage}`) }).click();
        await page.getByRole('option', { name: '10', exact: true }).click();
      }, (query) => query.get('take') === '10' && query.get('skip') === '0');
      await expect.poll(() => footer(page)).toBe(texts.rows(1, 10, SEEDED));
      await expect.poll(() => cards.count()).toBe(10);

      // Selection for the bulk actions: two cards, then the whole page.
      const [one, two] = byEmail as [Seed, Seed];
      await cardOf(one.email).getByRole('checkbox', { name: phone.select(one.email) }).check();
      await cardOf(two.email).getByRole('checkbox', { name: phone.select(two.email) }).check();
      await shown(page.getByRole('toolbar', { name: phone.selected(2) }));
      await page.getByRole('checkbox', { name: phone.selectPage }).check();
      await shown(page.getByRole('toolbar', { name: phone.selected(10) }));
      await page.getByRole('checkbox', { name: phone.selectPage }).uncheck();
      await expect.poll(() => page.getByRole('toolbar').count()).toBe(0);

      // A card's menu: the history, and a role change after confirming.
      await cardOf(one.email).getByRole('button', { name: phone.actionsFor(one.email) }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: texts.history(one.email) }).click();
      await shown(page.getByRole('dialog', { name: texts.history(one.email) }));
      await page.getByRole('dialog').getByRole('button', { name: texts.close }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      const user = await plainUser(`phone-${language}`);
      await search(page, texts, user.email);
      await shown(cardOf(user.email));
      await cardOf(user.email).getByRole('button', { name: phone.actionsFor(user.email) }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: texts.promote(user.email) }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.confirmPromote }).click();
      await shown(page.getByRole('alert').getByText(texts.promoted(user.email)));
      await expect.poll(() => cardOf(user.email).textContent()).toContain(`${phone.verified} · Admin`);

      // Nothing wider than the phone, and none of the DataGrid: neither drawn nor downloaded.
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
      await expect(page.locator('.MuiDataGrid-root').count()).resolves.toBe(0);
      expect(gridCode).toEqual([]);
      // A screen turned wide shows the grid, its code loaded then, with the same view.
      await page.setViewportSize({ width: 1280, height: 800 });
      await shown(rowOf(page, user.email));
      expect(gridCode).toHaveLength(1);
    });

    it('sorts by every column, pages, searches by email and name, and a reload keeps the view', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, texts);
      await showAllColumns(page, texts);
      for (const header of texts.headers) await shown(page.getByRole('columnheader', { name: header }));

      // Search by email prefix: exactly the seeded users, found on the server.
      await search(page, texts, PREFIX);
      await expect.poll(() => footer(page)).toBe(texts.rows(1, 25, SEEDED));
      expect(new URL(page.url()).searchParams.get('q')).toBe(PREFIX);

      // Every data column sorts on the server, ascending on the first click; some descending on the second.
      for (const field of USER_SORT_FIELDS) {
        const orders: ('asc' | 'desc')[] = ['email', 'createdAt', 'isAdmin', 'lastLaunchedAt'].includes(field) ? ['asc', 'desc'] : ['asc'];
        for (const order of orders) {
          const query = await listRequest(
            page,
            () => grid(page).locator(`[role="columnheader"][data-field="${field}"] .MuiDataGrid-columnHeaderTitle`).click(),
            (q) => q.get('sortField') === field,
          );
          expect(Object.fromEntries(query)).toEqual({ sortField: field, sortDirection: order, skip: '0', take: '25', search: PREFIX });
          await expect.poll(() => firstEmail(page), { message: `${field} ${order}` }).toBe(sorted(seeds, field, order)[0]?.email);
          await expect(grid(page).locator(`[role="columnheader"][data-field="${field}"]`).getAttribute('aria-sort')).resolves.toBe(
            order === 'asc' ? 'ascending' : 'descending',
          );
        }
      }
      // A boolean column shows its value in words (the icon's text): descending puts the admins first.
      const adminsFirst = sorted(seeds, 'isAdmin', 'desc');
      expect(await cell(page, 0, 'isAdmin').textContent()).toBe(texts.yes);
      expect(adminsFirst[0]?.admin).toBe(true);

      // Sort by last name, then page through: next page, then 100 a page.
      await listRequest(page, () => grid(page).locator('[role="columnheader"][data-field="lastName"] .MuiDataGrid-columnHeaderTitle').click(), (q) => q.get('sortField') === 'lastName');
      const byLastName = sorted(seeds, 'lastName', 'asc');
      const next = await listRequest(page, () => page.getByRole('button', { name: texts.next }).click(), (q) => q.get('skip') === '25');
      expect(next.get('take')).toBe('25');
      await expect.poll(() => firstEmail(page)).toBe(byLastName[25]?.email);
      await expect.poll(() => footer(page)).toBe(texts.rows(26, 50, SEEDED));

      await listRequest(
        page,
        async () => {
          await page.getByRole('combobox', { name: texts.rowsPerPage }).click();
          await page.getByRole('option', { name: '100', exact: true }).click();
        },
        (q) => q.get('take') === '100' && q.get('skip') === '0',
      );
      await expect.poll(() => footer(page)).toBe(texts.rows(1, 100, SEEDED));
      await listRequest(page, () => page.getByRole('button', { name: texts.next }).click(), (q) => q.get('skip') === '100' && q.get('take') === '100');
      await expect.poll(() => footer(page)).toBe(texts.rows(101, 200, SEEDED));
      await expect.poll(() => firstEmail(page)).toBe(byLastName[100]?.email);
      const address = new URL(page.url());
      expect(Object.fromEntries(address.searchParams)).toEqual({ page: '2', pageSize: '100', sort: 'lastName', order: 'asc', q: PREFIX });

      // A reload (or the same link elsewhere) shows the same view.
      const reloaded = await listRequest(page, () => page.reload(), (q) => q.get('search') === PREFIX);
      expect(Object.fromEntries(reloaded)).toEqual({ sortField: 'lastName', sortDirection: 'asc', skip: '100', take: '100', search: PREFIX });
      await expect.poll(() => footer(page)).toBe(texts.rows(101, 200, SEEDED));
      await expect.poll(() => firstEmail(page)).toBe(byLastName[100]?.email);
      await expect(page.getByLabel(texts.search).inputValue()).resolves.toBe(PREFIX);
      expect(page.url()).toBe(address.toString());

      // Search by first name (and a narrower email prefix): the first page of the matches, in the same order.
      const name = 'Yvette';
      const byName = await search(page, texts, name);
      expect(byName.get('skip')).toBe('0');
      const named = byLastName.filter((seed) => seed.firstName === name);
      await expect.poll(() => footer(page)).toBe(texts.rows(1, named.length, named.length));
      await expect.poll(() => firstEmail(page)).toBe(named[0]?.email);
      const firstNames = await page.locator('.MuiDataGrid-row [data-field="firstName"]').allTextContents();
      expect(new Set(firstNames)).toEqual(new Set([name]));

      await search(page, texts, `${PREFIX}-01`);
      await expect.poll(() => footer(page)).toBe(texts.rows(1, 10, 10));
      expect(errors).toEqual([]);
    }, 180_000);

    it('makes a user an admin after confirming: at once in the row, and their next request is an admin request', async () => {
      const user = await plainUser(`${language}-role`);
      const userToken = await accessToken(user.email, PASSWORD);
      await expect(listStatus(userToken)).resolves.toBe(403);

      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, texts);
      await search(page, texts, user.email);
      await expect.poll(() => rowOf(page, user.email).locator('[data-field="isAdmin"]').textContent()).toBe(texts.no);

      // The server answers slowly here, so the row can be seen changing before it does.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/users/*', async (route) => {
        if (route.request().method() === 'PATCH') await held;
        await route.continue();
      });
      await rowAction(page, texts, user.email, texts.promote(user.email));
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: texts.confirmPromote }).click();
      await expect.poll(() => rowOf(page, user.email).locator('[data-field="isAdmin"]').textContent()).toBe(texts.yes);
      release();
      await shown(page.getByRole('alert').getByText(texts.promoted(user.email)));
      await expect(listStatus(userToken)).resolves.toBe(200);

      // The row's history shows the change: who, what, when.
      await rowAction(page, texts, user.email, texts.history(user.email));
      const history = page.getByRole('dialog', { name: texts.history(user.email) });
      await shown(history.getByText(texts.rolesChanged));
      await shown(history.getByText(inject('adminEmail'), { exact: false }));
      await history.getByRole('button', { name: texts.close }).click();
      expect(errors).toEqual([]);
    });

    it('deletes a user after confirming: the row goes at once, and they can no longer sign in', async () => {
      const user = await plainUser(`${language}-delete`);
      await expect(apiLogin(user.email, PASSWORD)).resolves.toBe(200);

      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, texts);
      await search(page, texts, user.email);
      await shown(rowOf(page, user.email));

      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/users/*', async (route) => {
        if (route.request().method() === 'DELETE') await held;
        await route.continue();
      });
      await rowAction(page, texts, user.email, texts.remove(user.email));
      await page.getByRole('dialog').getByRole('button', { name: texts.confirmDelete }).click();
      await rowOf(page, user.email).waitFor({ state: 'detached', timeout: 5_000 });
      release();
      await shown(page.getByRole('alert').getByText(texts.deleted(user.email)));
      await expect(apiLogin(user.email, PASSWORD)).resolves.toBe(401);
      expect(errors).toEqual([]);
    });

    it("a change the server refuses is undone and its reason shown in the page's language", async () => {
      const user = await plainUser(`${language}-refused`);
      const { page } = await newPage(browser);
      await signInAsAdmin(page, texts);
      await search(page, texts, user.email);
      await expect.poll(() => rowOf(page, user.email).locator('[data-field="isAdmin"]').textContent()).toBe(texts.no);

      // LAST_ADMIN only happens when two admins demote each other at once; the refusal is played here.
      await page.route('**/api/users/*', (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ messageKey: 'LAST_ADMIN', message: 'refused' }) })
          : route.continue(),
      );
      await rowAction(page, texts, user.email, texts.promote(user.email));
      await page.getByRole('dialog').getByRole('button', { name: texts.confirmPromote }).click();
      await shown(page.getByRole('alert').getByText(texts.lastAdmin));
      await expect.poll(() => rowOf(page, user.email).locator('[data-field="isAdmin"]').textContent()).toBe(texts.no);
    });
  });
}

describe('admin users list: refusals from the real server', () => {
  it('deleting a user someone else deleted meanwhile shows USER_NOT_FOUND and the list catches up', async () => {
    const texts = TEXTS.en;
    const user = await plainUser('gone');
    const { page } = await newPage(browser);
    await signInAsAdmin(page, texts);
    await search(page, texts, user.email);
    await shown(rowOf(page, user.email));

    const elsewhere = await fetch(url(`/api/users/${user.id}`), { method: 'DELETE', headers: { Authorization: `Bearer ${adminToken}` } });
    expect(elsewhere.status).toBe(200);
    await rowAction(page, texts, user.email, texts.remove(user.email));
    await page.getByRole('dialog').getByRole('button', { name: texts.confirmDelete }).click();
    await shown(page.getByRole('alert').getByText(texts.notFound));
    await rowOf(page, user.email).waitFor({ state: 'detached' });
  });

  it("the admin's own row offers neither demotion nor deletion", async () => {
    const texts = TEXTS.en;
    const { page } = await newPage(browser);
    await signInAsAdmin(page, texts);
    const email = inject('adminEmail');
    await search(page, texts, email);
    await shown(rowOf(page, email));
    await rowOf(page, email).getByRole('menuitem', { name: texts.rowActions }).click();
    await expect(page.getByRole('menu').getByRole('menuitem', { name: 'You cannot remove your own admin role' }).getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(page.getByRole('menu').getByRole('menuitem', { name: 'You cannot delete your own account' }).getAttribute('aria-disabled')).resolves.toBe('true');
  });
});

describe('admin users list as a plain user', () => {
  for (const prefix of ['', '/de']) {
    it(`${prefix}/admin/users sends a plain user to the root, and GET /api/users answers 403`, async () => {
      const user = await plainUser(`plain${prefix.replace('/', '-')}`);
      const token = await accessToken(user.email, PASSWORD);
      await expect(listStatus(token)).resolves.toBe(403);
      const { context, page } = await newPage(browser);
      await context.addInitScript((value) => localStorage.setItem('token', value), token);
      await page.goto(url(`${prefix}/admin/users`));
      await page.waitForURL((address) => address.pathname === (prefix || '/'));
      await expect(page.getByRole('grid').count()).resolves.toBe(0);
    });
  }
});
