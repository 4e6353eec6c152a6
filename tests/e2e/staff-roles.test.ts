import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Role } from '../../contract/roles.js';
import { openDatabase } from '../../server/db/index.js';
import { testPasswordHash } from '../fixtures/password-hash.js';
import { launchBrowser, newPage, openInApp, shown, signIn, url } from './browser.js';

/**
 * Issue 47 in Chromium, en and de: what each staff role sees. Support finds and opens accounts and helps
 * (resend, end sessions, view as the customer) but is offered no deletion, role change, refund, bulk action,
 * export or analytics, and an address it may not see sends it to its own first screen; an analyst sees the
 * figures and nothing of anyone's account; support's view of a customer opens in a tab of its own, read only,
 * and its end closes that tab. The roles are written into the database; the answers are the server's
 * (`GET /users/me`'s permissions), which the web app follows. Runs on the shared server: it adds accounts and
 * changes nobody else's.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'staff roles 47';

const TEXTS = {
  en: {
    signIn: /sign in as administrator/i,
    users: 'Users',
    analytics: 'Analytics',
    search: 'Search by name or email (starts with)',
    rowActions: 'Actions',
    history: (email: string) => `History of ${email}`,
    rowForbidden: (email: string) => [`Delete ${email}`, `Make ${email} an admin`, `Change the staff roles of ${email}`],
    export: 'Export CSV',
    navigation: 'Main navigation',
    viewAs: 'View as this user',
    openView: 'Open the view',
    resend: 'Resend verification email',
    endSessions: 'End all sessions',
    pageForbidden: [/^Cancel and refund /, /^Cancel at period end$/, /^Make admin$/, /^Remove admin role$/, /^Change staff roles$/, /^Delete/],
    /** The sider's entries an analyst sees: the dashboard, cohorts and the store analytics. */
    analystMenu: ['Analytics', 'Cohort', 'Steam', 'Subscription', 'MetaPC store', 'Perpetual 2024', 'VIVEPORT', 'Android'],
    home: 'Account overview',
    profile: 'Profile',
    firstName: 'First name',
    save: 'Save changes',
    viewing: (email: string) => `Viewing as ${email} · read only`,
    endView: 'End view',
  },
  de: {
    signIn: /als administrator anmelden/i,
    users: 'Benutzer',
    analytics: 'Analysen',
    search: 'Nach Name oder E-Mail suchen (Anfang)',
    rowActions: 'Aktionen',
    history: (email: string) => `Verlauf von ${email}`,
    rowForbidden: (email: string) => [`${email} löschen`, `${email} zum Admin machen`, `Mitarbeiterrollen von ${email} ändern`],
    export: 'CSV exportieren',
    navigation: 'Hauptnavigation',
    viewAs: 'Als dieser Benutzer ansehen',
    openView: 'Ansicht öffnen',
    resend: 'Bestätigungs-E-Mail erneut senden',
    endSessions: 'Alle Sitzungen beenden',
    pageForbidden: [/^Kündigen und .+ erstatten$/, /^Zum Periodenende kündigen$/, /^Zum Admin machen$/, /^Admin-Rolle entziehen$/, /^Mitarbeiterrollen ändern$/, /löschen$/],
    analystMenu: ['Analysen', 'Kohorten', 'Steam', 'Abonnement', 'MetaPC Store', 'Dauerlizenz 2024', 'VIVEPORT', 'Android'],
    home: 'Kontoübersicht',
    profile: 'Profil',
    firstName: 'Vorname',
    save: 'Änderungen speichern',
    viewing: (email: string) => `Ansicht als ${email} · nur lesen`,
    endView: 'Ansicht beenden',
  },
} as const;
type Language = keyof typeof TEXTS;

interface Account {
  id: string;
  email: string;
}

/**
 * An account written straight into the server's database in one transaction: staff with `roles` beside
 * `user`; a customer `unverified` (support may resend the mail), with a live session (support may end it) and
 * with a monthly subscription paid today (an admin could refund it now: support must not be offered that).
 */
async function insertAccount(language: Language, options: { roles?: Role[]; unverified?: boolean; session?: boolean; paid?: boolean } = {}): Promise<Account> {
  const id = randomUUID();
  const email = `staff47-${randomBytes(4).toString('hex')}@example.com`;
  const passwordHash = await testPasswordHash(PASSWORD);
  const now = new Date();
  const created = now.toISOString();
  const later = new Date(now.getTime() + 86_400_000).toISOString();
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id,
          email,
          password_hash: passwordHash,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email_verified_at: options.unverified ? null : created,
          signup_source: 'e2e',
          language,
          created_at: created,
          updated_at: created,
        })
        .execute();
      await trx
        .insertInto('user_roles')
        .values(['user' as const, ...(options.roles ?? [])].map((role) => ({ user_id: id, role })))
        .execute();
      if (options.session) {
        await trx
          .insertInto('sessions')
          .values({ id: randomUUID(), user_id: id, method: 'password', remember: 0, created_at: created, last_active_at: created, expires_at: later, ended_at: null, ended_reason: null, browser: 'Firefox', os: 'Linux', address: null })
          .execute();
      }
      if (options.paid) {
        const subscriptionId = `sub_staff47${randomBytes(6).toString('hex')}`;
        const customerId = `ctm_staff47${randomBytes(6).toString('hex')}`;
        await trx
          .insertInto('subscriptions')
          .values({
            id: subscriptionId,
            customer_id: customerId,
            user_id: id,
            status: 'active',
            price_id: 'pri_e2e',
            billing_interval: 'month',
            currency_code: 'USD',
            created_at: created,
            last_event_at: created,
          })
          .execute();
        await trx
          .insertInto('transactions')
          .values({
            id: `txn_staff47${randomBytes(6).toString('hex')}`,
            customer_id: customerId,
            user_id: id,
            subscription_id: subscriptionId,
            status: 'completed',
            origin: 'web',
            currency_code: 'USD',
            subtotal: 1200,
            discount: 0,
            tax: 0,
            grand_total: 1200,
            billed_at: created,
            items: '[]',
            created_at: created,
            last_event_at: created,
          })
          .execute();
      }
    });
  } finally {
    await db.destroy();
  }
  return { id, email };
}

/** Signs `staff` in at the admin sign-in and waits for the screen the app lands them on. */
async function signInStaff(page: Page, language: Language, staff: Account, landing: string): Promise<void> {
  await signIn(page, `/${language}/admin/login`, staff.email, PASSWORD, TEXTS[language].signIn);
  await page.waitForURL((address) => address.pathname === `/${language}${landing}`);
}

/** The names of the sider's entries. */
function menuEntries(page: Page, language: Language): Promise<string[]> {
  return page.getByRole('navigation', { name: TEXTS[language].navigation }).getByRole('link').allInnerTexts();
}

/** Every answer of the API the page gets refused with 403 (a control the app offered that the server refuses). */
function refusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    if (response.status() === 403 && new URL(response.url()).pathname.startsWith('/api/')) refused.push(`${response.request().method()} ${response.url()}`);
  });
  return refused;
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`staff roles in Chromium (${language})`, () => {
    it('support opens accounts and helps, with no delete, role, refund, bulk or export control, and its direct visit to the analytics lands on the users list', async () => {
      const support = await insertAccount(language, { roles: ['support'] });
      const customer = await insertAccount(language, { unverified: true, session: true, paid: true });
      const { page, errors } = await newPage(browser);
      const refused = refusals(page);
      await signInStaff(page, language, support, '/admin/users');
      await shown(page.getByRole('heading', { level: 1, name: texts.users }));
      // The sider: the users list, and neither the figures nor any other admin screen.
      await expect.poll(() => menuEntries(page, language)).toEqual([texts.users]);

      // The grid: no export, no row selection (bulk actions), and a row's menu holds the history alone.
      // The search is in the address once its pause has passed (a screen left before would be replaced by it).
      await page.getByLabel(texts.search).fill(customer.email);
      await page.waitForURL((address) => address.searchParams.get('q') === customer.email);
      const row = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: customer.email, exact: true }) });
      await shown(row);
      expect(await page.getByRole('button', { name: texts.export }).count()).toBe(0);
      expect(await page.getByRole('grid').getByRole('checkbox').count()).toBe(0);
      await row.getByRole('menuitem', { name: texts.rowActions }).click();
      // The open menu (the grid's action cells are menus too, of one button each).
      const history = page.getByRole('menuitem', { name: texts.history(customer.email) });
      const rowMenu = page.getByRole('menu').filter({ has: history });
      await shown(history);
      expect(await rowMenu.getByRole('menuitem').allInnerTexts()).toEqual([texts.history(customer.email)]);
      for (const name of texts.rowForbidden(customer.email)) expect(await page.getByRole('menuitem', { name }).count(), name).toBe(0);
      await page.keyboard.press('Escape');

      // The customer's page: what support may use, and no money, role or deletion control.
      await openInApp(page, `/${language}/admin/users/${customer.id}`);
      const card = page.getByTestId('admin-user');
      await shown(card.getByRole('heading', { level: 1, name: customer.email }));
      await shown(card.getByRole('button', { name: texts.viewAs, exact: true }));
      await shown(card.getByRole('button', { name: texts.resend, exact: true }));
      await shown(card.getByRole('button', { name: texts.endSessions, exact: true }));
      // By accessible name: a button's rendered text is upper case.
      for (const forbidden of texts.pageForbidden) expect(await card.getByRole('button', { name: forbidden }).count(), String(forbidden)).toBe(0);

      // A direct visit to the analytics (a load of its address, as from a bookmark) lands on the users list.
      await page.goto(url(`/${language}/admin/analytics`));
      await page.waitForURL((address) => address.pathname === `/${language}/admin/users`);
      await shown(page.getByRole('heading', { level: 1, name: texts.users }));
      expect(refused).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('an analyst sees the analytics only: the sider lists the figures, and the users list sends it to them', async () => {
      const analyst = await insertAccount(language, { roles: ['analyst'] });
      const { page, errors } = await newPage(browser);
      const refused = refusals(page);
      await signInStaff(page, language, analyst, '/admin/analytics');
      await shown(page.getByRole('heading', { level: 1, name: texts.analytics }));
      await expect.poll(() => menuEntries(page, language)).toEqual(texts.analystMenu);

      await page.goto(url(`/${language}/admin/users`));
      await page.waitForURL((address) => address.pathname === `/${language}/admin/analytics`);
      await shown(page.getByRole('heading', { level: 1, name: texts.analytics }));
      expect(await page.getByRole('heading', { level: 1, name: texts.users }).count()).toBe(0);
      expect(refused).toEqual([]);
      expect(errors).toEqual([]);
    });

    it("support's view as the customer opens their home in a tab of its own, read only, and its end closes it", async () => {
      const support = await insertAccount(language, { roles: ['support'] });
      const customer = await insertAccount(language);
      const { context, page, errors } = await newPage(browser);
      await signInStaff(page, language, support, '/admin/users');
      await openInApp(page, `/${language}/admin/users/${customer.id}`);
      await shown(page.getByRole('heading', { level: 1, name: customer.email }));

      await page.getByRole('button', { name: texts.viewAs, exact: true }).click();
      const opened = context.waitForEvent('page');
      await page.getByRole('dialog').getByRole('button', { name: texts.openView }).click();
      const view = await opened;
      const viewErrors: string[] = [];
      view.on('pageerror', (error) => viewErrors.push(error.message));
      const refused = refusals(view);
      const writes: string[] = [];
      view.on('request', (request) => {
        if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/users/me')) writes.push(`${request.method()} ${request.url()}`);
      });

      // The customer's home, under the banner that names them.
      await view.waitForURL((address) => address.pathname === `/${language}`);
      const banner = view.getByTestId('read-only-view');
      await shown(banner.getByText(texts.viewing(customer.email), { exact: false }));
      await shown(view.getByRole('heading', { level: 1, name: texts.home }));

      // Their profile, as they filled it, with its save disabled: not even Enter in a field sends it.
      await openInApp(view, `/${language}/account/profile`);
      await shown(view.getByRole('heading', { level: 1, name: texts.profile }));
      await shown(banner);
      await expect.poll(() => view.getByLabel(texts.firstName).inputValue()).toBe('Ada');
      await expect(view.getByRole('button', { name: texts.save }).isDisabled()).resolves.toBe(true);
      await view.getByLabel(texts.firstName).fill('Mallory');
      await view.getByLabel(texts.firstName).press('Enter');
      await expect(view.getByRole('button', { name: texts.save }).isDisabled()).resolves.toBe(true);

      // Ending the view closes its tab; the staff member's own tab stays signed in.
      const closed = view.waitForEvent('close');
      await banner.getByRole('button', { name: texts.endView }).click();
      await closed;
      expect(writes).toEqual([]);
      expect(refused).toEqual([]);
      expect(viewErrors).toEqual([]);
      await openInApp(page, `/${language}/admin/users`);
      await shown(page.getByRole('heading', { level: 1, name: texts.users }));
      expect(errors).toEqual([]);
    });
  });
}
