import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 44 item 7: a sign-in from a browser and system the account has not used in 90 days mails the
 * owner, in their language, with the browser, system, address, time and a link to the security page.
 * Not for the account's first session (the sign-in that completes a registration), and not for the
 * same browser after an update: browsers and systems are compared by name, without versions.
 */
const CHROME_131 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_132 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36';
const CHROME_ON_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const DAY_SECONDS = 86_400;
const SUBJECT = { en: 'New sign-in to your Shapelab account', de: 'Neue Anmeldung bei deinem Shapelab-Konto' };

const newEmail = () => `signin-${randomBytes(5).toString('hex')}@example.com`;

async function login(server: TestServer, user: { email: string; password: string }, userAgent: string, address = '198.51.100.23', url = '/api/auth/login') {
  const response = await server.app.inject({
    method: 'POST',
    url,
    payload: url === '/api/auth/login' ? { email: user.email, password: user.password, rememberMe: false } : { email: user.email, password: user.password },
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access_token: string }>();
}

async function newSignInMails(server: TestServer, email: string) {
  await server.app.jobs.idle();
  return server.db.kysely
    .selectFrom('outbox')
    .select(['subject', 'text'])
    .where('to_address', '=', email)
    .where('subject', 'in', [SUBJECT.en, SUBJECT.de])
    .orderBy('id')
    .execute();
}

describeEachDatabase('the new-sign-in mail', (server) => {
  it("not for an account's first session; once for a new browser and system; not for it again, nor after a browser update", async () => {
    const user = await server().createUser();
    await login(server(), user, CHROME_131);
    expect(await newSignInMails(server(), user.email)).toEqual([]);
    await login(server(), user, CHROME_131);
    // Chrome 131 to 132 is an update, not a new browser.
    await login(server(), user, CHROME_132);
    expect(await newSignInMails(server(), user.email)).toEqual([]);

    await login(server(), user, FIREFOX_ON_LINUX, '203.0.113.50');
    const [mail, ...more] = await newSignInMails(server(), user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe(SUBJECT.en);
    expect(mail?.text).toContain('Browser: Firefox 133\nSystem: Linux\nAddress: 203.0.113.50\nTime: ');
    expect(mail?.text).toMatch(/Time: \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC\n/);
    expect(mail?.text).toContain('http://localhost:3000/en/account/security');
    await login(server(), user, FIREFOX_ON_LINUX, '203.0.113.51');
    expect(await newSignInMails(server(), user.email)).toHaveLength(1);

    // The same browser on another system is a new pair.
    await login(server(), user, CHROME_ON_MAC);
    expect((await newSignInMails(server(), user.email)).map((m) => m.subject)).toEqual([SUBJECT.en, SUBJECT.en]);
  });

  it('again for a browser and system unused for 90 days, not within them', async () => {
    const user = await server().createUser();
    await login(server(), user, CHROME_131);
    await login(server(), user, FIREFOX_ON_LINUX);
    expect(await newSignInMails(server(), user.email)).toHaveLength(1);
    server().clock.advance(60 * DAY_SECONDS);
    await login(server(), user, FIREFOX_ON_LINUX);
    expect(await newSignInMails(server(), user.email)).toHaveLength(1);
    // 91 days after that last Firefox sign-in (its session long over): new again.
    server().clock.advance(91 * DAY_SECONDS);
    await login(server(), user, CHROME_131);
    expect(await newSignInMails(server(), user.email)).toHaveLength(2);
    await login(server(), user, FIREFOX_ON_LINUX);
    expect(await newSignInMails(server(), user.email)).toHaveLength(3);
  });

  it('a session in use keeps its browser known: its activity counts, not only its sign-in', async () => {
    const user = await server().createUser();
    await login(server(), user, CHROME_131);
    server().clock.advance(80 * DAY_SECONDS);
    // The session is long expired, but the last time it was used is what counts; a used one is recent.
    await server().db.kysely.updateTable('sessions').set({ last_active_at: server().clock.now().toISOString() }).where('user_id', '=', user.id).execute();
    server().clock.advance(20 * DAY_SECONDS);
    await login(server(), user, CHROME_132);
    expect(await newSignInMails(server(), user.email)).toEqual([]);
  });

  it('not for the sign-in that completes a registration', async () => {
    const email = newEmail();
    const registered = await server().app.inject({
      method: 'POST',
      url: '/api/users?generateVerificationCode=true',
      payload: { email, password: 'sculpt4ever', firstName: 'Ada', lastName: 'Lovelace', privacyAccepted: true },
      headers: { 'user-agent': CHROME_131 },
      remoteAddress: '198.51.100.30',
    });
    expect(registered.statusCode, registered.body).toBe(201);
    await server().app.jobs.idle();
    const verification = await server().db.kysely.selectFrom('outbox').select('subject').where('to_address', '=', email).executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(verification.subject)?.[1] ?? '';
    const confirmed = await server().app.inject({
      method: 'POST',
      url: '/api/users/validate/code',
      payload: { email, code },
      headers: { 'user-agent': FIREFOX_ON_LINUX },
      remoteAddress: '198.51.100.30',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await newSignInMails(server(), email)).toEqual([]);
    // The next sign-in from that browser is known; one from another is news.
    await login(server(), { email, password: 'sculpt4ever' }, FIREFOX_ON_LINUX);
    expect(await newSignInMails(server(), email)).toEqual([]);
    await login(server(), { email, password: 'sculpt4ever' }, CHROME_131);
    expect(await newSignInMails(server(), email)).toHaveLength(1);
  });

  it('in the owner’s language, for every way of signing in (the admin sign-in too)', async () => {
    const admin = await server().createUser({ roles: ['user', 'admin'] });
    await server().db.kysely.updateTable('users').set({ language: 'de' }).where('id', '=', admin.id).execute();
    await login(server(), admin, CHROME_131);
    await login(server(), admin, FIREFOX_ON_LINUX, '203.0.113.9', '/api/auth/admin-login');
    const [mail] = await newSignInMails(server(), admin.email);
    expect(mail?.subject).toBe(SUBJECT.de);
    expect(mail?.text).toContain('Browser: Firefox 133\nSystem: Linux\nAdresse: 203.0.113.9\nZeit: ');
    expect(mail?.text).toMatch(/Zeit: \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} um \d{2}:\d{2} UTC\n/);
    expect(mail?.text).toContain('http://localhost:3000/de/account/security');
  });
});
