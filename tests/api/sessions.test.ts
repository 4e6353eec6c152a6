import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, signIn, someClientAddress, startTestServer, type TestServer } from '../fixtures/server.js';
import { follow } from '../fixtures/sse.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 17: sessions that end when the user says so. Every sign-in is a session; sign-out and ending it
 * from another device refuse its access token from the next request; renewal stops at its absolute
 * expiry; its event streams close with it, and a user's streams are bounded (issue 44: 10 across sessions).
 */
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

function request(server: TestServer, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, token?: string, options: { payload?: object; userAgent?: string; language?: string } = {}) {
  return server.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      'accept-language': options.language ?? 'en',
    },
    remoteAddress: someClientAddress(),
    ...(options.payload ? { payload: options.payload } : {}),
  });
}

async function login(server: TestServer, user: { email: string; password: string }, options: { rememberMe?: boolean; userAgent?: string } = {}) {
  const response = await request(server, 'POST', '/api/auth/login', undefined, {
    payload: { email: user.email, password: user.password, rememberMe: options.rememberMe ?? false },
    userAgent: options.userAgent,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access_token: string; offline_token?: string }>();
}

const HOUR = 3600;

describeEachDatabase('sessions', (server) => {
  it('signing out ends the session at once: its access token answers 401 from the next request', async () => {
    const user = await server().createUser();
    const { access_token, offline_token } = await login(server(), user, { rememberMe: true });
    expect((await request(server(), 'GET', '/api/users/me', access_token)).statusCode).toBe(200);
    const out = await request(server(), 'POST', '/api/auth/logout', access_token, { payload: { offlineToken: offline_token } });
    expect(out.statusCode).toBe(204);
    const after = await request(server(), 'GET', '/api/users/me', access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json().messageKey).toBe('SESSION_EXPIRED');
    expect((await request(server(), 'POST', '/api/auth/validate', undefined, { payload: { authToken: access_token, offlineToken: offline_token } })).statusCode).toBe(401);
    // Signing out twice, or with an expired token, is not an error.
    expect((await request(server(), 'POST', '/api/auth/logout', access_token)).statusCode).toBe(204);
  });

  it('lists the sessions with this device marked, and ends another one: its token is refused at once', async () => {
    const user = await server().createUser();
    const laptop = await login(server(), user, { userAgent: CHROME });
    const phone = await login(server(), user, { userAgent: FIREFOX, rememberMe: true });
    const listed = await request(server(), 'GET', '/api/users/me/sessions', laptop.access_token);
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json<{ id: string; current: boolean; browser: string; os: string; address: string; expiresAt: string; createdAt: string }[]>();
    expect(sessions).toHaveLength(2);
    const mine = sessions.find((s) => s.current);
    const other = sessions.find((s) => !s.current);
    expect(mine).toMatchObject({ browser: 'Chrome 131', os: 'Windows 10' });
    expect(other).toMatchObject({ browser: 'Firefox 133', os: 'Linux' });
    expect(other?.address).toMatch(/^10\./);
    // 12 hours without "remember me", 30 days with.
    expect(Date.parse(mine?.expiresAt as string) - Date.parse(mine?.createdAt as string)).toBe(12 * HOUR * 1000);
    expect(Date.parse(other?.expiresAt as string) - Date.parse(other?.createdAt as string)).toBe(30 * 24 * HOUR * 1000);

    // Someone else cannot end it, nor see it.
    const stranger = await server().createUser();
    const theirs = await login(server(), stranger);
    expect((await request(server(), 'DELETE', `/api/users/me/sessions/${other?.id}`, theirs.access_token)).statusCode).toBe(404);
    expect((await request(server(), 'GET', '/api/users/me/sessions', theirs.access_token)).json()).toHaveLength(1);

    const ended = await request(server(), 'DELETE', `/api/users/me/sessions/${other?.id}`, laptop.access_token);
    expect(ended.statusCode).toBe(204);
    expect((await request(server(), 'GET', '/api/users/me', phone.access_token)).statusCode).toBe(401);
    expect((await request(server(), 'POST', '/api/auth/validate', undefined, { payload: { authToken: phone.access_token, offlineToken: phone.offline_token } })).statusCode).toBe(401);
    expect((await request(server(), 'GET', '/api/users/me', laptop.access_token)).statusCode).toBe(200);
    const again = await request(server(), 'DELETE', `/api/users/me/sessions/${other?.id}`, laptop.access_token, { language: 'de' });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ messageKey: 'SESSION_NOT_FOUND', message: 'Diese Sitzung ist bereits beendet oder existiert nicht.' });
  });

  it('signs out everywhere else, keeping this session', async () => {
    const user = await server().createUser();
    const here = await login(server(), user);
    const others = [await login(server(), user), await login(server(), user, { rememberMe: true })];
    const response = await request(server(), 'DELETE', '/api/users/me/sessions', here.access_token);
    expect(response.json()).toEqual({ ended: 2 });
    for (const other of others) expect((await request(server(), 'GET', '/api/users/me', other.access_token)).statusCode).toBe(401);
    expect((await request(server(), 'GET', '/api/users/me/sessions', here.access_token)).json()).toHaveLength(1);
  });

  it('renewal never goes past the session’s absolute expiry: 12 hours, or 30 days with remember me', async () => {
    const user = await server().createUser();
    let { access_token: token } = await login(server(), user);
    const started = server().clock.now().getTime();
    // Renewed through the Bearer header past half-life, request after request, for 12 hours.
    for (let elapsed = 0; elapsed < 12 * HOUR; elapsed += 40 * 60) {
      server().clock.advance(40 * 60);
      const response = await request(server(), 'GET', '/api/users/me', token);
      if (server().clock.now().getTime() - started >= 12 * HOUR * 1000) {
        expect(response.statusCode).toBe(401);
        break;
      }
      expect(response.statusCode, `after ${(elapsed + 40 * 60) / 60} minutes`).toBe(200);
      const renewed = response.headers.bearer;
      if (typeof renewed === 'string') {
        token = renewed;
        expect(decodeJwt(renewed).exp).toBeLessThanOrEqual(started / 1000 + 12 * HOUR);
      }
    }
    expect((await request(server(), 'GET', '/api/users/me', token)).statusCode).toBe(401);

    const remembered = await login(server(), user, { rememberMe: true });
    const since = server().clock.now().getTime();
    let offline = remembered.offline_token as string;
    for (let day = 1; day <= 31; day += 1) {
      server().clock.advance(24 * HOUR);
      const renewed = await request(server(), 'POST', '/api/auth/validate', undefined, { payload: { authToken: 'x', offlineToken: offline } });
      if (day >= 30) {
        expect(renewed.statusCode).toBe(401);
        break;
      }
      expect(renewed.statusCode, `day ${day}`).toBe(200);
      offline = renewed.json().offline_token;
      expect(decodeJwt(renewed.json().access_token).exp).toBeLessThanOrEqual(since / 1000 + 30 * 24 * HOUR);
    }
  });

  it('a token from before sessions (no sid) is refused', async () => {
    const user = await server().createUser();
    const { SignJWT } = await import('jose');
    const secret = new TextEncoder().encode(server().config.jwtSecret);
    const now = Math.floor(server().clock.now().getTime() / 1000);
    const legacy = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer('shapelab-portal')
      .setAudience('shapelab-portal')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(secret);
    expect((await request(server(), 'GET', '/api/users/me', legacy)).statusCode).toBe(401);
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`event streams follow sessions and roles [${kind}]`, () => {
    let server: TestServer;
    let base: string;
    beforeAll(async () => {
      server = await startTestServer(kind, { maxEventStreams: 12 }, { eventHeartbeatMs: 100 });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await server?.close();
    });
    const open = (token: string) => fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });

    it('the eleventh stream of a user, across sessions, closes the oldest; the process total is bounded', async () => {
      const user = await server.createUser();
      // Three sessions (tabs, devices) of one user: the bound is the user's, not each session's.
      const tokens = [];
      for (let i = 0; i < 3; i += 1) tokens.push((await signIn(server, user.email, user.password)).access_token);
      const streams = [];
      for (let i = 0; i < 10; i += 1) {
        const stream = follow(await open(tokens[i % 3] as string));
        await stream.waitFor(/: connected/);
        streams.push(stream);
      }
      const eleventh = follow(await open(tokens[1] as string));
      await eleventh.waitFor(/: connected/);
      await streams[0]?.ended();
      expect(streams.slice(1).map((stream) => stream.isEnded())).toEqual(Array.from({ length: 9 }, () => false));
      // Another user's streams are no part of this user's bound.
      const neighbour = await server.createUser();
      const theirs = follow(await open((await signIn(server, neighbour.email, neighbour.password)).access_token));
      await theirs.waitFor(/: connected/);
      expect([...streams.slice(1), eleventh].map((stream) => stream.isEnded())).toEqual(Array.from({ length: 10 }, () => false));
      // 11 open now; 12 allowed in total: of 3 more (other users), 1 opens and 2 are refused with 503.
      const others = [];
      for (let i = 0; i < 3; i += 1) {
        const other = await server.createUser();
        others.push(await open((await signIn(server, other.email, other.password)).access_token));
      }
      expect(others.map((response) => response.status)).toEqual([200, 503, 503]);
      expect(await others[2]?.json()).toMatchObject({ messageKey: 'TOO_MANY_STREAMS' });
      for (const stream of [...streams, eleventh, theirs]) await stream.close();
      for (const response of others) await response.body?.cancel().catch(() => undefined);
    });

    it('a stream closes when its session ends, and when its user is deleted', async () => {
      const user = await server.createUser();
      const { access_token } = await signIn(server, user.email, user.password);
      const stream = follow(await open(access_token));
      await stream.waitFor(/: connected/);
      await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${access_token}` } });
      await stream.ended();

      const doomed = await server.createUser();
      const admin = await server.createUser({ roles: ['user', 'admin'] });
      const doomedToken = (await signIn(server, doomed.email, doomed.password)).access_token;
      const adminToken = (await signIn(server, admin.email, admin.password)).access_token;
      const doomedStream = follow(await open(doomedToken));
      await doomedStream.waitFor(/: connected/);
      const deleted = await server.app.inject({ method: 'DELETE', url: `/api/users/${doomed.id}`, headers: { authorization: `Bearer ${adminToken}` } });
      expect(deleted.statusCode, deleted.body).toBe(200);
      await doomedStream.ended();
    });

    it('a stream closes when its session ends because a rotated offline token came back (issue 44)', async () => {
      const user = await server.createUser();
      const { access_token, offline_token } = await signIn(server, user.email, user.password, true);
      const stream = follow(await open(access_token));
      await stream.waitFor(/: connected/);
      const renew = () => server.app.inject({ method: 'POST', url: '/api/auth/validate', payload: { offlineToken: offline_token }, remoteAddress: someClientAddress() });
      expect((await renew()).statusCode).toBe(200);
      server.clock.advance(60);
      expect((await renew()).statusCode).toBe(401);
      await stream.ended();
    });

    it('a demoted admin’s stream stops receiving analytics events at once', async () => {
      const boss = await server.createUser({ roles: ['user', 'admin'] });
      const demoted = await server.createUser({ roles: ['user', 'admin'] });
      const bossToken = (await signIn(server, boss.email, boss.password)).access_token;
      const demotedStream = follow(await open((await signIn(server, demoted.email, demoted.password)).access_token));
      const bossStream = follow(await open(bossToken));
      await demotedStream.waitFor(/: connected/);
      await bossStream.waitFor(/: connected/);
      const changed = await server.app.inject({ method: 'PATCH', url: `/api/users/${demoted.id}`, headers: { authorization: `Bearer ${bossToken}` }, payload: { roles: ['user'] } });
      expect(changed.statusCode, changed.body).toBe(200);
      // A desktop report: admins' streams hear its analytics.
      const player = await server.createUser();
      const playerToken = (await signIn(server, player.email, player.password)).access_token;
      const activated = await server.app.inject({ method: 'POST', url: '/api/desktop/activate', headers: { authorization: `Bearer ${playerToken}` }, payload: { computerId: 'pc-stream', name: 'PC' } });
      const deviceToken = activated.json().deviceToken as string;
      const at = server.clock.now().getTime();
      const reported = await server.app.inject({
        method: 'POST',
        url: '/api/desktop/sessions',
        headers: { authorization: `Bearer ${deviceToken}` },
        payload: { id: randomUUID(), startedAt: new Date(at - 600_000).toISOString(), endedAt: new Date(at).toISOString(), lengthSeconds: 600, suspicious: false },
      });
      expect(reported.json()).toEqual({ recorded: true });
      await bossStream.waitFor(/event: analytics/);
      // Two heartbeats after the report reached the boss: the demoted stream heard none of it.
      const heartbeats = (demotedStream.text().match(/: heartbeat/g) ?? []).length;
      await demotedStream.waitFor(new RegExp(`(: heartbeat[\\s\\S]*){${heartbeats + 2}}`));
      expect(demotedStream.text()).not.toContain('event: analytics');
      expect(demotedStream.isEnded()).toBe(false);
      await demotedStream.close();
      await bossStream.close();
    });
  });
}
