import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 20 item 7: the sign-in email changes only with the current password and a code mailed to the
 * new address; the old address is told; sessions stay; the Paddle customer's email follows; a taken
 * address answers like a free one; codes expire and die after 5 wrong tries; two confirms at once change
 * it once.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const freshEmail = () => `moved-${randomBytes(5).toString('hex')}@example.com`;

async function session(server: TestServer) {
  const user = await server.createUser();
  const signedIn = await signIn(server, user.email, user.password, true);
  return { ...user, token: signedIn.access_token, offline: signedIn.offline_token as string };
}

async function mails(server: TestServer, to: string) {
  await server.app.jobs.idle();
  return (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json<{ subject: string; text: string }[]>();
}

async function codeSentTo(server: TestServer, to: string): Promise<string> {
  const mail = (await mails(server, to)).find((m) => m.subject.startsWith('Your code to change your Shapelab email'));
  return /\b(\d{6})\b/.exec(mail?.subject ?? '')?.[1] ?? '';
}

const request = (server: TestServer, token: string, payload: object) => call(server, 'POST', '/api/users/me/email', token, { payload });
const confirm = (server: TestServer, token: string, code: string) => call(server, 'POST', '/api/users/me/email/confirm', token, { payload: { code } });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describeEachDatabase(
  'change email',
  (server) => {
    it('moves the sign-in to the new address with the code; the old address is told; sessions stay signed in', async () => {
      const user = await session(server());
      const email = freshEmail();
      const asked = await request(server(), user.token, { email: email.toUpperCase(), password: user.password });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toMatchObject({ sent: true, email });
      const code = await codeSentTo(server(), email);
      expect(code).toMatch(/^\d{6}$/);
      // Nothing changes before the code: the old address still signs in.
      expect((await call(server(), 'GET', '/api/users/me', user.token)).json().email).toBe(user.email);

      const confirmed = await confirm(server(), user.token, code);
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().email).toBe(email);

      const notice = (await mails(server(), user.email)).find((m) => m.subject === 'The email address of your Shapelab account was changed');
      expect(notice?.text).toContain(email);
      expect(notice?.text).toContain('/forgot-password');
      // The same session and its offline token keep working.
      expect((await call(server(), 'GET', '/api/users/me', user.token)).json().email).toBe(email);
      expect((await call(server(), 'POST', '/api/auth/validate', undefined, { payload: { offlineToken: user.offline } })).statusCode).toBe(200);
      // Sign-in goes by the new address, no longer the old one.
      expect((await call(server(), 'POST', '/api/auth/login', undefined, { payload: { email: user.email, password: user.password } })).statusCode).toBe(401);
      expect((await call(server(), 'POST', '/api/auth/login', undefined, { payload: { email, password: user.password } })).statusCode).toBe(200);
      // The code worked once, and the account's timeline has the change once.
      expect((await confirm(server(), user.token, code)).json().messageKey).toBe('INVALID_VERIFICATION_CODE');
      const timeline = await server().db.kysely.selectFrom('activity_log').select(['kind', 'details']).where('user_id', '=', user.id).where('kind', '=', 'email.changed').execute();
      expect(timeline.map((entry) => JSON.parse(entry.details))).toEqual([{ from: user.email, to: email }]);
    });

    it('the Paddle customer email follows the sign-in email, but not a billing email of its own', async () => {
      const user = await session(server());
      const customerId = (await call(server(), 'GET', '/api/subscription/paddle/customer', user.token)).json().id as string;
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      await confirm(server(), user.token, await codeSentTo(server(), email));
      await server().app.jobs.idle();
      expect((await paddle.paddle.customers.get(customerId)).email).toBe(email);

      // A billing email the user chose stays when the sign-in email changes again.
      const billing = freshEmail();
      expect((await call(server(), 'PATCH', '/api/subscription/billing-info', user.token, { payload: { email: billing } })).statusCode).toBe(200);
      const next = freshEmail();
      await request(server(), user.token, { email: next, password: user.password });
      await confirm(server(), user.token, await codeSentTo(server(), next));
      await server().app.jobs.idle();
      expect((await paddle.paddle.customers.get(customerId)).email).toBe(billing);
    });

    it('refuses a wrong or missing password (403) and the current address (400), and sends nothing', async () => {
      const user = await session(server());
      const email = freshEmail();
      const wrong = await request(server(), user.token, { email, password: 'not the password 1' });
      expect([wrong.statusCode, wrong.json().messageKey]).toEqual([403, 'WRONG_PASSWORD']);
      const missing = await request(server(), user.token, { email });
      expect([missing.statusCode, missing.json().messageKey]).toEqual([403, 'WRONG_PASSWORD']);
      const same = await request(server(), user.token, { email: user.email, password: user.password });
      expect([same.statusCode, same.json().messageKey]).toEqual([400, 'EMAIL_UNCHANGED']);
      const invalid = await request(server(), user.token, { email: 'not-an-address', password: user.password });
      expect(invalid.statusCode).toBe(400);
      expect(await mails(server(), email)).toEqual([]);
      expect((await call(server(), 'POST', '/api/users/me/email', undefined, { payload: { email, password: user.password } })).statusCode).toBe(401);
    });

    it('a taken address answers like a free one; its owner is told, no code exists, the account keeps its address', async () => {
      const user = await session(server());
      const other = await server().createUser();
      const free = freshEmail();
      const taken = await request(server(), user.token, { email: other.email, password: user.password });
      const open = await request(server(), user.token, { email: free, password: user.password });
      expect(taken.statusCode).toBe(open.statusCode);
      expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(open.json()).sort());
      expect(taken.body.replace(other.email, 'X')).toEqual(open.body.replace(free, 'X'));
      const toOwner = await mails(server(), other.email);
      expect(toOwner.map((m) => m.subject)).toContain('Someone tried to use this address for a Shapelab account');
      expect(toOwner.some((m) => /\b\d{6}\b/.test(m.text))).toBe(false);

      // The request for the taken address came last: no code is pending, any code fails like a wrong one.
      await request(server(), user.token, { email: other.email, password: user.password });
      const guess = await confirm(server(), user.token, await codeSentTo(server(), free));
      expect([guess.statusCode, guess.json().messageKey]).toEqual([400, 'INVALID_VERIFICATION_CODE']);
      expect((await call(server(), 'GET', '/api/users/me', user.token)).json().email).toBe(user.email);
    });

    it('an address registered after the request is refused at confirm (409), the account unchanged', async () => {
      const user = await session(server());
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      const code = await codeSentTo(server(), email);
      await server().createUser({ email });
      const late = await confirm(server(), user.token, code);
      expect([late.statusCode, late.json().messageKey]).toEqual([409, 'EMAIL_ALREADY_REGISTERED']);
      expect((await call(server(), 'GET', '/api/users/me', user.token)).json().email).toBe(user.email);
      expect((await mails(server(), user.email)).some((m) => m.subject.includes('was changed'))).toBe(false);
    });

    it('a wrong code counts; the fifth wrong try kills the code, and the right one no longer works', async () => {
      const user = await session(server());
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      const code = await codeSentTo(server(), email);
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        const wrong = await confirm(server(), user.token, wrongCode(code));
        expect([wrong.statusCode, wrong.json().messageKey]).toEqual([400, 'INVALID_VERIFICATION_CODE']);
      }
      expect((await confirm(server(), user.token, wrongCode(code))).json().messageKey).toBe('VERIFICATION_CODE_EXPIRED');
      expect((await confirm(server(), user.token, code)).json().messageKey).toBe('VERIFICATION_CODE_EXPIRED');
      expect((await call(server(), 'GET', '/api/users/me', user.token)).json().email).toBe(user.email);
    });

    it('a code expires after an hour; a new request replaces the old code', async () => {
      const user = await session(server());
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      const first = await codeSentTo(server(), email);
      server().clock.advance(3601);
      // The access token lasts an hour too: a fresh one, so the code's age is what answers.
      const token = (await signIn(server(), user.email, user.password)).access_token;
      expect((await confirm(server(), token, first)).json().messageKey).toBe('VERIFICATION_CODE_EXPIRED');
      const other = freshEmail();
      await request(server(), token, { email: other, password: user.password });
      const second = await codeSentTo(server(), other);
      expect((await confirm(server(), token, second)).json().email).toBe(other);
    });

    it('one user cannot confirm with a code mailed for another user', async () => {
      const alice = await session(server());
      const bob = await session(server());
      const email = freshEmail();
      await request(server(), alice.token, { email, password: alice.password });
      const code = await codeSentTo(server(), email);
      await request(server(), bob.token, { email: freshEmail(), password: bob.password });
      const stolen = await confirm(server(), bob.token, code);
      // Bob's own code differs, so Alice's fails for him (the digest binds the code to its user).
      if (stolen.statusCode === 200) throw new Error('a code confirmed another user\'s change');
      expect(stolen.json().messageKey).toBe('INVALID_VERIFICATION_CODE');
      expect((await call(server(), 'GET', '/api/users/me', alice.token)).json().email).toBe(alice.email);
    });

    it('two confirms at once change the address once and tell the old address once', async () => {
      const user = await session(server());
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      const code = await codeSentTo(server(), email);
      const answers = await Promise.all([confirm(server(), user.token, code), confirm(server(), user.token, code)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      expect(answers.find((a) => a.statusCode === 400)?.json().messageKey).toBe('INVALID_VERIFICATION_CODE');
      const notices = (await mails(server(), user.email)).filter((m) => m.subject.includes('was changed'));
      expect(notices).toHaveLength(1);
      const jobs = await server().db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'billing-email-follows-sign-in').where('payload', 'like', `%${email}%`).execute();
      expect(jobs.length).toBeLessThanOrEqual(1);
    });

    it('a social-only account (no password) changes its address with the code alone', async () => {
      const user = await session(server());
      await server().db.kysely.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      const email = freshEmail();
      expect((await request(server(), user.token, { email })).statusCode).toBe(200);
      expect((await confirm(server(), user.token, await codeSentTo(server(), email))).json().email).toBe(email);
    });

    it('the mails speak the user language', async () => {
      const user = await session(server());
      await call(server(), 'PATCH', '/api/users/me', user.token, { payload: { language: 'de' } });
      const email = freshEmail();
      await request(server(), user.token, { email, password: user.password });
      const [mail] = await mails(server(), email);
      expect(mail?.subject).toMatch(/^Dein Code zum Ändern deiner Shapelab-E-Mail-Adresse: \d{6}$/);
      const code = /(\d{6})$/.exec(mail?.subject ?? '')?.[1] ?? '';
      await confirm(server(), user.token, code);
      expect((await mails(server(), user.email)).map((m) => m.subject)).toContain('Die E-Mail-Adresse deines Shapelab-Kontos wurde geändert');
    });
  },
  () => ({ billing: paddle.billing }),
);
