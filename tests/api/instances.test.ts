import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, someClientAddress, startAnotherInstance, startTestServer, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { follow, readUntil } from '../fixtures/sse.js';

/**
 * Issue 19: two instances on one PostgreSQL database. What one instance learns (a webhook, a sign-out)
 * reaches the event streams held by the other through LISTEN/NOTIFY, and the job workers of both never
 * run one job twice (FOR UPDATE SKIP LOCKED). SQLite is one instance by design, so this runs on PostgreSQL only.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let paddle: Awaited<ReturnType<typeof startSandbox>>;
  let a: TestServer;
  let b: TestServer;
  let baseA: string;
  let baseB: string;

  beforeAll(async () => {
    paddle = await startSandbox();
    a = await startTestServer('postgres', { billing: paddle.billing });
    b = await startAnotherInstance(a);
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    baseA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
    baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    // Paddle's webhooks land on instance A only.
    paddle.deliverTo(() => a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await paddle?.sandbox.close();
  });

  it('a purchase completed by a webhook on A is heard on the stream opened on B, in order', async () => {
    await paddle.travelTo(a, TEST_NOW);
    const user = await a.createUser();
    const { access_token: token } = await signIn(a, user.email, user.password);
    const stream = await fetch(`${baseB}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const customerId = (await call(a, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
    const checkout = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.monthly, quantity: 1 }], customerId });
    await paddle.pay(checkout.id, '4242424242424242');
    await paddle.sandbox.flush();
    const subscriptionId = (await call(a, 'GET', '/api/subscription/user', token)).json().id as string;
    const heard = await readUntil(stream, /event: subscription\ndata: [^\n]*\n\n[\s\S]*event: transaction|event: transaction\ndata: [^\n]*\n\n[\s\S]*event: subscription/);
    expect(heard).toContain(`event: subscription\ndata: ${JSON.stringify({ type: 'subscription', id: subscriptionId })}\n\n`);
    expect(heard).toContain(`event: transaction\ndata: ${JSON.stringify({ type: 'transaction', id: checkout.id })}\n\n`);
  });

  it('signing out on A ends the stream held by B at once', async () => {
    const user = await a.createUser();
    const { access_token: token } = await signIn(a, user.email, user.password);
    const stream = await fetch(`${baseB}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect((await call(a, 'POST', '/api/auth/logout', token, { payload: {} })).statusCode).toBe(204);
    const deadline = Date.now() + 5000;
    let done = false;
    while (!done && Date.now() < deadline) done = (await Promise.race([reader.read(), new Promise<{ done: false }>((resolve) => setTimeout(() => resolve({ done: false }), 200))])).done;
    expect(done, 'the stream on B ended').toBe(true);
  });

  it('both workers drain one queue and run each job once: forty resets asked of either instance, forty links, forty mails', async () => {
    const users = await Promise.all(Array.from({ length: 40 }, () => a.createUser()));
    await Promise.all(
      users.map((user, i) =>
        (i % 2 === 0 ? a : b).app.inject({ method: 'GET', url: `/api/users/forget-password/${encodeURIComponent(user.email)}`, remoteAddress: someClientAddress() }),
      ),
    );
    await Promise.all([a.app.jobs.idle(), b.app.jobs.idle()]);
    const ids = users.map((user) => user.id);
    const links = await a.db.kysely.selectFrom('password_resets').select('user_id').where('user_id', 'in', ids).execute();
    expect(links).toHaveLength(40);
    expect(new Set(links.map((link) => link.user_id)).size).toBe(40);
    const mails = await a.db.kysely.selectFrom('outbox').select('to_address').where('to_address', 'in', users.map((user) => user.email)).execute();
    expect(mails).toHaveLength(40);
    const jobs = await a.db.kysely.selectFrom('jobs').select(['locked_by', 'attempts']).where('kind', '=', 'password-reset').execute();
    expect(jobs).toHaveLength(40);
    expect(jobs.every((job) => Number(job.attempts) === 1 && [a.app.jobs.instanceId, b.app.jobs.instanceId].includes(job.locked_by ?? ''))).toBe(true);
  });

  it('a user holds at most ten streams across both instances: the next closes the oldest, whichever instance holds it', async () => {
    const user = await a.createUser();
    const tokens = [(await signIn(a, user.email, user.password)).access_token, (await signIn(b, user.email, user.password)).access_token];
    const open = async (base: string, token: string) => {
      const stream = follow(await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } }));
      await stream.waitFor(/: connected/);
      // "Oldest" is the order in which the bus delivers the openings to every instance: a NOTIFY round
      // trip is a few milliseconds, so by then this opening is heard before the next one is made.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return stream;
    };
    const streams = [];
    for (let i = 0; i < 10; i += 1) streams.push(await open(i % 2 === 0 ? baseA : baseB, tokens[i % 2] as string));
    // The eleventh, on B, closes the oldest, held by A (B holds five and would not close any of its own).
    const eleventh = await open(baseB, tokens[1] as string);
    await streams[0]?.ended();
    expect(streams.slice(1).map((stream) => stream.isEnded())).toEqual(Array.from({ length: 9 }, () => false));
    // The twelfth, on A, closes the oldest left, held by B.
    const twelfth = await open(baseA, tokens[0] as string);
    await streams[1]?.ended();
    expect([...streams.slice(2), eleventh, twelfth].map((stream) => stream.isEnded())).toEqual(Array.from({ length: 10 }, () => false));
    for (const stream of [...streams, eleventh, twelfth]) await stream.close();
  });

  it('the per-address limit holds across both instances: twenty requests in all, then 429 on either', async () => {
    const attempt = (server: TestServer, i: number) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `probe-${i}@example.com`, password: 'wrong password 1', rememberMe: false },
        remoteAddress: '10.201.0.1',
      });
    for (let i = 0; i < 20; i += 1) expect((await attempt(i % 2 === 0 ? a : b, i)).statusCode).toBe(401);
    for (const server of [a, b]) {
      const refused = await attempt(server, 99);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().messageKey).toBe('TOO_MANY_REQUESTS');
    }
  });
});
