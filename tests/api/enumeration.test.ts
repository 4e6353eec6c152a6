import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * No answer tells whether an address is registered (issue "Accounts"): not the status, not the body, and
 * not the time taken beyond noise. Each probe alternates a registered and an unknown address and compares
 * the medians; every probe uses fresh accounts so no throttle is reached.
 */
const SAMPLES = 9;

const unknownEmail = () => `nobody-${randomBytes(5).toString('hex')}@example.com`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed(server: TestServer, request: { method: 'GET' | 'POST'; url: string; payload?: object }) {
  const started = process.hrtime.bigint();
  const response = await server.app.inject({ ...request, remoteAddress: someClientAddress() });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, status: response.statusCode, body: response.body };
}

type Probe = (email: string) => { method: 'GET' | 'POST'; url: string; payload?: object };

async function measure(server: TestServer, probe: Probe, verified: boolean) {
  const known: Awaited<ReturnType<typeof timed>>[] = [];
  const unknown: Awaited<ReturnType<typeof timed>>[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const user = await server.createUser({ verified });
    // Half the pairs start with the unknown address, so whatever the order costs falls on both.
    const pair = i % 2 === 0 ? [user.email, unknownEmail()] : [unknownEmail(), user.email];
    for (const email of pair) {
      const answer = await timed(server, probe(email));
      (email === user.email ? known : unknown).push(answer);
      // Mail for a real account goes out after the answer; let it finish so it does not slow the next probe.
      await server.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(user.email)}` });
    }
  }
  return { known, unknown, knownMs: median(known.map((r) => r.ms)), unknownMs: median(unknown.map((r) => r.ms)) };
}

/**
 * Same status and byte-identical bodies, and medians within noise: they differ by less than half of the
 * slower one, or by under 3 ms. A busy machine (CI runs test files side by side) can make one round
 * noisy, so up to three rounds are measured: a real difference (work done before the answer only for a
 * registered address) shows in every round, noise does not.
 */
async function compare(server: TestServer, probe: Probe, verified = true) {
  const rounds: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    const { known, unknown, knownMs, unknownMs } = await measure(server, probe, verified);
    expect(new Set([...known, ...unknown].map((r) => `${r.status} ${r.body}`)).size).toBe(1);
    const difference = Math.abs(knownMs - unknownMs);
    if (difference < 3 || difference < 0.5 * Math.max(knownMs, unknownMs)) return;
    rounds.push(`known ${knownMs.toFixed(2)} ms, unknown ${unknownMs.toFixed(2)} ms`);
  }
  expect.fail(`the answers took measurably different times in every round: ${rounds.join('; ')}`);
}

describeEachDatabase('no account enumeration', (server) => {
  it('sign-in: a wrong password and an unknown address take as long and answer alike', async () => {
    await compare(server(), (email) => ({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'not the one 1', rememberMe: false } }));
  });

  it('forgot password: a registered and an unknown address take as long and answer alike', async () => {
    await compare(server(), (email) => ({ method: 'GET', url: `/api/users/forget-password/${encodeURIComponent(email)}` }));
  });

  it('resend verification: an unverified and an unknown address take as long and answer alike', async () => {
    await compare(
      server(),
      (email) => ({ method: 'GET', url: `/api/users/resendVerificationEmail/${encodeURIComponent(email)}?generateVerificationCode=true` }),
      false,
    );
  });
});
