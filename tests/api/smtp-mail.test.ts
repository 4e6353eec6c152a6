import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/** A real SMTP server on a local port: it keeps what it receives and refuses `bounce-*` recipients for good. */
interface Received {
  to: string[];
  raw: string;
}
const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (address.address.startsWith('bounce-')) {
      callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
      return;
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      // A real mail server takes its time; an answer that waited for it would give registered addresses away.
      setTimeout(callback, SMTP_DELAY_MS);
    });
  },
});
let smtpUrl = '';
const SMTP_DELAY_MS = 40;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

function register(server: TestServer, email: string, language = 'en') {
  return server.app.inject({
    method: 'POST',
    url: '/api/users?generateVerificationCode=true',
    payload: { email, password: 'sculpt4ever', firstName: 'Ada', lastName: 'Lovelace', privacyAccepted: true },
    headers: { 'accept-language': language },
    remoteAddress: someClientAddress(),
  });
}

async function userCount(server: TestServer, email: string): Promise<number> {
  const row = await server.db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase(
  'mail over SMTP',
  (server) => {
    it('sends the verification mail over SMTP with a text and an HTML part in the visitor’s language', async () => {
      const email = `smtp-${randomBytes(4).toString('hex')}@example.com`;
      const response = await register(server(), email, 'de');
      expect(response.statusCode).toBe(201);
      const mail = received.find((m) => m.to.includes(email));
      expect(mail, 'the SMTP server received the mail').toBeDefined();
      expect(mail?.raw).toMatch(/Content-Type: multipart\/alternative/i);
      expect(mail?.raw).toMatch(/Content-Type: text\/plain/i);
      expect(mail?.raw).toMatch(/Content-Type: text\/html/i);
      expect(mail?.raw).toMatch(/Subject: =\?UTF-8\?|Subject: Dein/);
      expect(mail?.raw).toMatch(/\/de\/users\/validate\//);
    });

    it('forgot password answers a registered address as fast as an unknown one, although its mail is slow', async () => {
      // Nine of each, the known address first in one round and the unknown in the next: on a machine busy
      // with other work (npm test runs its lint beside the tests), five of each in a fixed order once
      // differed by 25 ms, the previous request's mail job landing on the same side each time.
      const rounds = 9;
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < rounds; i += 1) {
        const user = await server().createUser();
        const pair = [['known', user.email], ['unknown', `nobody-${randomBytes(4).toString('hex')}@example.com`]] as const;
        for (const [kind, email] of i % 2 === 0 ? pair : [...pair].reverse()) {
          const started = performance.now();
          const response = await server().app.inject({
            method: 'GET',
            url: `/api/users/forget-password/${encodeURIComponent(email)}`,
            remoteAddress: someClientAddress(),
          });
          times[kind].push(performance.now() - started);
          expect(response.json()).toEqual({ ok: true });
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
      expect(median(times.known) - median(times.unknown)).toBeLessThan(SMTP_DELAY_MS / 2);
    });

    it('refuses an address the mail server rejects for good, and keeps no account for it', async () => {
      const email = `bounce-${randomBytes(4).toString('hex')}@example.com`;
      const response = await register(server(), email);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        messageKey: 'EMAIL_VERIFICATION_FAILED',
        message: 'We could not deliver the verification email to this address. Please use a valid, permanent email address.',
      });
      expect(await userCount(server(), email)).toBe(0);
    });
  },
  () => ({ mailTransport: 'smtp', smtpUrl }),
);

describeEachDatabase(
  'mail server unreachable',
  (server) => {
    it('answers 503 with a messageKey and keeps no half-made account, so trying again works', async () => {
      const email = `down-${randomBytes(4).toString('hex')}@example.com`;
      const response = await register(server(), email);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ messageKey: 'DEFAULT' });
      expect(await userCount(server(), email)).toBe(0);
    });
  },
  // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
  () => ({ mailTransport: 'smtp', smtpUrl: 'smtp://127.0.0.1:9' }),
);
