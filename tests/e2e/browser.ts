import type { AxeResults } from 'axe-core';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject, onTestFinished } from 'vitest';
import { TEST_CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from '../../scripts/chromium.js';
import { openDatabase } from '../../server/db/index.js';
import { testPasswordHash } from '../fixtures/password-hash.js';
import { UsersRepo } from '../../server/modules/users/repo.js';
import { WAITING_PARTS } from '../../src/components/Staggered.js';
import { splitLocale } from '../../src/routing/locale.js';

/** The worker's browser, the files holding it, and the timer that closes it once none has for a moment. */
interface WorkerBrowser {
  browser: Promise<Browser>;
  holders: number;
  closing?: NodeJS.Timeout;
}
let workerBrowser: WorkerBrowser | undefined;
const CLOSE_WHEN_UNHELD_MS = 2_000;

/**
 * The system Chromium, headless, with the flags this machine needs and V8's later tiering (scripts/chromium.ts);
 * Playwright gives it a fresh profile. Browser files that share a worker's modules (the e2e project) share one
 * browser, and with it the kept tabs (see newPage): a file's `browser.close()` lets go of it, and it closes
 * when no file has held it for two seconds: a launch and a first page in a new renderer cost a file about a
 * CPU second (bench/README.md, "Time of `npm test`"). A file that needs a browser of its own (a setting no
 * cleaning resets) calls Playwright's `chromium.launch` itself.
 */
export function launchBrowser(): Promise<Browser> {
  if (workerBrowser) {
    clearTimeout(workerBrowser.closing);
    workerBrowser.holders += 1;
    return workerBrowser.browser;
  }
  const held: WorkerBrowser = { browser: chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: TEST_CHROMIUM_FLAGS }), holders: 1 };
  workerBrowser = held;
  held.browser.catch(() => {
    if (workerBrowser === held) workerBrowser = undefined;
  });
  return held.browser.then((browser: Browser) => {
    const close = browser.close.bind(browser);
    browser.on('disconnected', () => {
      if (workerBrowser === held) workerBrowser = undefined;
    });
    Object.defineProperty(browser, 'close', {
      configurable: true,
      value: () => {
        held.holders -= 1;
        if (held.holders > 0) return Promise.resolve();
        held.closing = setTimeout(() => {
          if (workerBrowser === held) workerBrowser = undefined;
          void close();
        }, CLOSE_WHEN_UNHELD_MS).unref();
        return Promise.resolve();
      },
    });
    return browser;
  });
}

function closeWhenTestFinishes(context: BrowserContext): void {
  try {
    onTestFinished(() => context.close());
  } catch {
    // Not inside a test (a beforeAll): the file's afterAll closes the browser and its contexts.
  }
}

/** A browser context with options of its own (a locale, a user agent, downloads), closed like newPage's. */
export async function newContext(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  closeWhenTestFinishes(context);
  return context;
}

export function url(path: string): string {
  return `${inject('baseUrl')}${path}`;
}

/**
 * A tab handed from one test to the next (see newPage), and whether a test did to it what cleaning cannot
 * undo: an init script or an exposed function stays for every later page, so such a tab is closed instead.
 */
interface KeptTab {
  context: BrowserContext;
  page: Page;
  tainted: boolean;
}

const keptTabs = new WeakMap<Browser, KeptTab[]>();
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
const PAGE_EVENTS = ['pageerror', 'console', 'dialog', 'request', 'response', 'requestfinished', 'requestfailed', 'download', 'popup', 'framenavigated', 'load', 'domcontentloaded'];
const CONTEXT_EVENTS = ['page', 'request', 'response', 'requestfinished', 'requestfailed', 'console', 'dialog'];

/** Marks the tab tainted when a test adds to it what a later test would inherit and nothing can remove. */
function watchForTaint(tab: KeptTab): void {
  for (const target of [tab.page, tab.context]) {
    for (const method of ['addInitScript', 'exposeFunction', 'exposeBinding'] as const) {
      const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
      Object.defineProperty(target, method, {
        configurable: true,
        value: (...args: unknown[]) => {
          tab.tainted = true;
          return original(...args);
        },
      });
    }
  }
}

/**
 * Cleans a tab for the next test, as if it were new: the test's other tabs closed, its listeners, routes,
 * media emulation, viewport, permissions and cookies gone, and the app's local and session storage
 * emptied from a page of its origin that is not the app (the tab is left there). What stays is what a
 * browser keeps between visits to a site and no test reads: the HTTP cache, and the renderer with the
 * scripts it has compiled. False when the tab cannot be cleaned (the caller closes it).
 */
async function cleanTab(tab: KeptTab): Promise<boolean> {
  const { context, page } = tab;
  if (tab.tainted || page.isClosed()) return false;
  for (const other of context.pages()) if (other !== page) await other.close();
  for (const event of PAGE_EVENTS) page.removeAllListeners(event);
  for (const event of CONTEXT_EVENTS) context.removeAllListeners(event);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });
  await page.setViewportSize(DEFAULT_VIEWPORT);
  await context.setOffline(false);
  await context.clearPermissions();
  await page.goto(url('/favicon.svg'), { timeout: 10_000 });
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await context.clearCookies();
  return true;
}

/**
 * A browser context (its own storage) and a page that fail the test on any uncaught page error.
 *
 * Made inside a test, the tab is cleaned once the test has passed (cleanTab) and handed to the file's next
 * test that asks for one, and closed when the test fails; one made in a hook is closed with the browser.
 * A new context and tab cost about 2.4 s of CPU to show a signed-in page, the same page loaded in a kept
 * tab 1.2 to 1.5 s: its renderer and the scripts it has compiled stay (bench/README.md, "Time of `npm
 * test`"). The suite is bound by CPU, and its browser files opened some 250 tabs. A test about a first
 * visit (the requests of a cold load) passes a context of its own (`newContext`). Settings a test could
 * leave that cleanTab does not reset (default timeouts, extra headers, geolocation, a fake clock) are used
 * by no test; one that starts using them resets them or takes a context of its own.
 */
export async function newPage(browser: Browser, context?: BrowserContext): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const errors: string[] = [];
  const failOnPageErrors = (page: Page) => page.on('pageerror', (error) => errors.push(error.message));
  if (context) {
    const page = await context.newPage();
    failOnPageErrors(page);
    return { context, page, errors };
  }
  const kept = keptTabs.get(browser) ?? [];
  keptTabs.set(browser, kept);
  let tab = kept.pop();
  if (!tab) {
    const created = await browser.newContext({ locale: 'en-US' });
    tab = { context: created, page: await created.newPage(), tainted: false };
    watchForTaint(tab);
  }
  const taken = tab;
  failOnPageErrors(taken.page);
  try {
    onTestFinished(async ({ task }) => {
      const cleaned = task.result?.state !== 'fail' && (await cleanTab(taken).catch(() => false));
      if (cleaned) kept.push(taken);
      else await taken.context.close().catch(() => undefined);
    });
  } catch {
    // Not inside a test (a beforeAll): the file's afterAll closes the browser and its contexts.
  }
  return { context: taken.context, page: taken.page, errors };
}

/**
 * The accounts this worker writes, one after another. Each write opens its own connection to the server's
 * SQLite file and inserts in one transaction across several awaits; a second one started meanwhile in this
 * thread waits for the first one's lock in SQLite's busy handler, which blocks the thread, so the first
 * can never commit: after 5 s the second fails with SQLITE_BUSY, and the server's own writes wait that
 * long too. Five accounts made at once (tests/e2e/home.test.ts) did so once the password hash, which used
 * to space them out, was worked out once (2026-11-27).
 */
let accountWrites: Promise<unknown> = Promise.resolve();

/** A verified account with the user role (and the admin role with `admin`), written straight into the server's database. */
export async function createVerifiedUser(language: 'en' | 'de' = 'en', options: { admin?: boolean } = {}): Promise<{ id: string; email: string; password: string }> {
  const id = randomUUID();
  const email = `e2e-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'e2e password 42';
  const passwordHash = await testPasswordHash(password);
  const write = accountWrites.then(async () => {
    const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
    try {
      const now = new Date().toISOString();
      await new UsersRepo(db).insert(
        {
          id,
          email,
          password_hash: passwordHash,
          first_name: 'E2E',
          last_name: 'User',
          email_verified_at: now,
          signup_source: 'e2e',
          language,
          created_at: now,
          updated_at: now,
        },
        options.admin ? ['user', 'admin'] : ['user'],
      );
    } finally {
      await db.destroy();
    }
  });
  accountWrites = write.catch(() => undefined);
  await write;
  return { id, email, password };
}

/** Signs in through the API (no browser): the HTTP status, to check which password works. */
export async function apiLogin(email: string, password: string): Promise<number> {
  const response = await fetch(url('/api/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

export async function signIn(page: Page, path: string, email: string, password: string, submit: RegExp) {
  await page.goto(url(path));
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: submit }).click();
}

/** Whether the tab shows the running app: an address of the test server whose root the app has rendered into. */
export async function showsApp(page: Page): Promise<boolean> {
  return page.url().startsWith(inject('baseUrl')) && (await page.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0));
}

/** Moves the running app's router to `address` (a path and query), as its links do: the history changes and the router renders the route. */
export async function moveRouter(page: Page, address: string): Promise<void> {
  await page.evaluate((path) => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, address);
}

/**
 * Opens `path` as the running app's own links do: its router moves there in the same document, as after a
 * customer's click in a menu or on a button, and the new screen asks the server for its data as it mounts.
 * A load of the address costs Chromium about four times as much CPU (0.85 against 0.23 CPU s a signed-in
 * screen, bench/README.md, "Time of `npm test`"). The address is loaded instead when the tab does not show
 * the app, shows it in another language, or shows that very address already (the screen would stay as it
 * is, with what it read before). As after a load, the caller waits for what it reads next.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const target = new URL(url(path));
  const current = new URL(page.url());
  const sameScreen = `${current.pathname}${current.search}` === `${target.pathname}${target.search}`;
  const otherLanguage = splitLocale(current.pathname).locale !== splitLocale(target.pathname).locale;
  if (sameScreen || otherLanguage || !(await showsApp(page))) {
    await page.goto(target.href);
    return;
  }
  await moveRouter(page, `${target.pathname}${target.search}`);
}

/**
 * Waits (up to 20 s) until the element is visible; fails the test otherwise. Generous: the full suite
 * runs three browser files beside each other on two cores, and a page's first heading took over 10 s there.
 */
export async function shown(locator: Locator): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: 20_000 });
  } catch (error) {
    if (error instanceof Error) error.message += `\n${await screenState(locator.page())}`;
    throw error;
  }
}

/**
 * What the screen showed when a wait for something failed: its address and the texts of its alerts (the
 * notifications and the forms' refusals), so a failure in CI says what came instead of what was awaited.
 */
async function screenState(page: Page): Promise<string> {
  if (page.isClosed()) return 'The page was closed.';
  const alerts = await page
    .getByRole('alert')
    .allInnerTexts()
    .catch(() => []);
  const said = alerts.map((text) => JSON.stringify(text.trim())).filter((text) => text !== '""');
  return `The page showed ${page.url()}, with ${said.length === 0 ? 'no alert' : `these alerts: ${said.join(', ')}`}.`;
}

/**
 * Scrolls down with the mouse wheel, as a reader does, until `target` shows: what a screen draws only as it
 * comes on screen (src/components/Staggered.tsx, `asNeeded`: the profile's sections on the home) is drawn
 * then. A wheel the page was not yet listening for is turned again.
 */
export async function scrollTo(target: Locator): Promise<void> {
  await scrollUntil(target.page(), async () => target.first().isVisible());
}

/** Scrolls down until no part of the screen waits to come on screen (the mark Staggered leaves where they would be). */
export async function scrollToEnd(page: Page): Promise<void> {
  await scrollUntil(page, async () => (await page.locator(`[${WAITING_PARTS}]`).count()) === 0);
}

async function scrollUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await done()) return true;
        await page.mouse.wheel(0, 2_000);
        return done();
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true);
}

/** The stand-in checkout's submit button: "Pay $…", a free trial's "Start free trial", a card update's "Save card" (en or de). */
export const SUBMIT_CARD = /^(Pay|Bezahlen|Start free trial|Kostenlos testen|Save card|Karte speichern)/;

/** The stand-in checkout's card fields, named in the checkout's locale (en or de). */
export const CARD_FIELDS = {
  number: /^(Card number|Kartennummer)$/,
  expiry: /^(Expiry date|Ablaufdatum)$/,
  securityCode: /^(Security code|Sicherheitscode)$/,
  name: /^(Name on card|Name auf der Karte)$/,
};

/** Fills the stand-in checkout's card form (server/sandbox) and pays, in either language. */
export async function payWith(page: Page, card: string): Promise<void> {
  const checkout = page.frameLocator('iframe.paddle-frame');
  await checkout.getByLabel(CARD_FIELDS.number).fill(card);
  await checkout.getByLabel(CARD_FIELDS.expiry).fill('12/30');
  await checkout.getByLabel(CARD_FIELDS.securityCode).fill('123');
  await checkout.getByLabel(CARD_FIELDS.name).fill('E2E Buyer');
  await checkout.getByRole('button', { name: SUBMIT_CARD }).click();
}

/**
 * The top-level groups of the app's texts and the namespaces of their own (locales/): a bare key on screen
 * starts with one of them ("pages.home.plan", "adminUser:subtitle").
 */
const TEXT_GROUPS = ['app', 'errors', 'validation', 'pages', 'routes', 'header', 'languages', 'common', 'purchases', 'menu', 'billing', 'download', 'notifications'];
const TEXT_NAMESPACES = ['adminUser', 'security', 'twoFactorSignIn'];

/**
 * i18next's raw-text shapes on a page (issue 46 item 3), in its text and in the names assistive technology
 * reads (aria-label, title, placeholder, alt): "key '…' returned an object instead of string" (a key that
 * names a group of texts), and a bare key shown because no text was found. One line each.
 */
export async function rawTranslationText(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found = [document.body?.innerText ?? ''];
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) found.push(value);
      }
    }
    return found;
  });
  const bareKey = new RegExp(String.raw`(?<![\w@/.-])(?:(?:${TEXT_GROUPS.join('|')})\.[A-Za-z][\w]*(?:\.[\w]+)*|(?:${TEXT_NAMESPACES.join('|')}):[a-z][\w]*(?:\.[\w]+)*)(?![\w@/-])`, 'g');
  const problems = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/key '[^']*' returned an object instead of string/g)) problems.add(match[0]);
    for (const match of text.matchAll(bareKey)) problems.add(`bare key ${match[0]}`);
  }
  return [...problems];
}

/** axe-core's browser build, read once per test file. */
let axeSource: string | undefined;

/**
 * The page's serious and critical axe-core violations (WCAG 2.1 A and AA), one line each. axe-core is
 * put into each frame once per document and run from the top one, which audits the frames too (the
 * stand-in checkout's frame is same-origin). @axe-core/playwright, used before, injected its 600 KB
 * script into every frame and opened a blank page to merge the results on each call: 1.3 s a call against
 * 0.1 s for the run itself, which made the route walk the suite's longest file.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    const present = await frame.evaluate(() => 'axe' in window).catch(() => true);
    if (!present) await frame.evaluate(axeSource).catch(() => undefined);
  }
  const results = await page.evaluate(
    (tags) => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'],
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Every row action of every table and grid on the page that is not within reach (issue 48 item 2): a
 * button or link in a table's row (a <table>'s body, a DataGrid's row, a card of src/components/
 * ResponsiveTable.tsx) whose box is not wholly inside the visible part of each box around it that clips or
 * scrolls, and of the window, as the page is shown (nothing scrolled sideways). One line each, naming it.
 */
export async function rowActionsOutOfReach(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const actions = document.querySelectorAll('tbody tr button, tbody tr a[href], .MuiDataGrid-row button, [data-row-actions] button, [data-row-actions] a[href]');
    for (const action of actions) {
      const box = action.getBoundingClientRect();
      // Not drawn (a hidden row, a closed menu's item): nothing to reach.
      if (box.width === 0 && box.height === 0) continue;
      let left = 0;
      let right = document.documentElement.clientWidth;
      for (let node = action.parentElement; node && node !== document.documentElement; node = node.parentElement) {
        if (getComputedStyle(node).overflowX === 'visible') continue;
        const edges = node.getBoundingClientRect();
        left = Math.max(left, edges.left + node.clientLeft);
        right = Math.min(right, edges.left + node.clientLeft + node.clientWidth);
      }
      if (box.left < left - 1 || box.right > right + 1) {
        const name = action.getAttribute('aria-label') ?? action.textContent?.trim() ?? action.tagName;
        found.push(`"${name}" at ${Math.round(box.left)}–${Math.round(box.right)} px, its table shows ${Math.round(left)}–${Math.round(right)} px`);
      }
    }
    return found;
  });
}

/**
 * The actions on screen that something else covers (issue 48 item 7: a success message over "Refund and end
 * now"): every visible button and link of the page's main area, below its header and inside the window,
 * whose centre is not the topmost element there (nor inside it). One line each, naming the action and what
 * covers it.
 */
export async function coveredActions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const covered: string[] = [];
    // Content scrolled up under the page's own sticky header is not covered: it is scrolled away.
    const headerBottom = Math.max(0, ...[...document.querySelectorAll('header')].map((header) => header.getBoundingClientRect().bottom));
    for (const action of document.querySelectorAll('main button, main a[href]')) {
      const box = action.getBoundingClientRect();
      // Not drawn, or drawn invisible (a closed drawer's button): nothing to cover.
      if (box.width === 0 || box.height === 0 || !action.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < headerBottom || x > window.innerWidth || y > window.innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (top && (top === action || action.contains(top))) continue;
      const name = action.getAttribute('aria-label') ?? action.textContent?.trim() ?? action.tagName;
      const where = (node: Element) => `${node.tagName.toLowerCase()}.${[...node.classList].slice(0, 2).join('.')} "${(node.textContent ?? '').trim().slice(0, 60)}"`;
      covered.push(`"${name}" (${where(action.parentElement ?? action)}) under ${top ? `${where(top)} in ${where(top.closest('[class]')?.parentElement ?? top)}` : 'nothing'}`);
    }
    return covered;
  });
}

/**
 * The buttons whose label wraps onto a second line (issue 48 item 11: "ADD DISCOUNT / CODE" on a phone), or
 * that a label kept on one line pushes past what the page shows of it: every visible `button`, `[role=button]`
 * and button-styled link (`a.MuiButton-root`), its text measured as the browser laid it out. A Range over
 * each of its text nodes gives one box per line the text occupies; boxes whose vertical middles lie within
 * half a line of each other are one line, and more than one line is a wrapped label. A button that sticks
 * out of the window, or out of an ancestor that clips or scrolls (a card clips: a label too long for a phone
 * would vanish at its edge without widening the page), is cut. One line each, naming the button and where it is.
 */
export async function wrappedButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wrapped: string[] = [];
    for (const button of document.querySelectorAll<HTMLElement>('button, [role=button], a.MuiButton-root')) {
      // Not drawn, or drawn invisible (a closed menu's item, a drawer off screen): no label to read.
      if (!button.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const lineHeight = parseFloat(getComputedStyle(button).lineHeight) || parseFloat(getComputedStyle(button).fontSize) * 1.2;
      const middles: number[] = [];
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const box of range.getClientRects()) {
          if (box.width === 0 || box.height === 0) continue;
          const middle = box.top + box.height / 2;
          if (!middles.some((seen) => Math.abs(seen - middle) < lineHeight / 2)) middles.push(middle);
        }
      }
      const box = button.getBoundingClientRect();
      let left = 0;
      let right = document.documentElement.clientWidth;
      for (let node = button.parentElement; node && node !== document.documentElement; node = node.parentElement) {
        if (getComputedStyle(node).overflowX === 'visible') continue;
        const edges = node.getBoundingClientRect();
        left = Math.max(left, edges.left + node.clientLeft);
        right = Math.min(right, edges.left + node.clientLeft + node.clientWidth);
      }
      const cut = box.left < left - 1 || box.right > right + 1;
      if (middles.length < 2 && !cut) continue;
      const name = (button.textContent ?? '').replace(/\s+/g, ' ').trim() || (button.getAttribute('aria-label') ?? button.tagName);
      const where = `${Math.round(box.left)}–${Math.round(box.right)} px`;
      wrapped.push(cut ? `"${name}" at ${where} is cut: what shows of it is ${Math.round(left)}–${Math.round(right)} px` : `"${name}" on ${middles.length} lines at ${where}`);
    }
    return wrapped;
  });
}
