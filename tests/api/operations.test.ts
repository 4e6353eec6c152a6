import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startTestServer, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/** Issue 19, what operators need: readiness for the load balancer and Prometheus metrics behind a token or a port. */
describeEachDatabase('readiness', (server) => {
  it('is ready when the database answers and every migration has run; liveness stays as it was', async () => {
    const ready = await server().app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    const live = await server().app.inject({ method: 'GET', url: '/api/health' });
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('is not ready while the database lacks a migration this code needs, and ready again once it ran', async () => {
    const { db, app } = server();
    const last = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(db.kysely);
    const row = last.rows[0];
    expect(row).toBeDefined();
    if (!row) return;
    await sql`delete from kysely_migration where name = ${row.name}`.execute(db.kysely);
    try {
      const answer = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'unavailable', reasons: ['migrations'] });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(db.kysely);
    }
    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('readiness without a database [%s]', (kind) => {
  it('answers 503 naming the database, not a 500, when the database is gone', async () => {
    const server = await startTestServer(kind);
    try {
      await server.db.destroy();
      const answer = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'unavailable', reasons: ['database'] });
    } finally {
      await server.close();
    }
  });
});

describe.each(DATABASE_KINDS)('metrics [%s]', (kind) => {
  const TOKEN = 'scrape-me-0123456789abcdef';
  let withToken: TestServer;
  let withPort: TestServer;
  let without: TestServer;
  beforeAll(async () => {
    [withToken, withPort, without] = await Promise.all([
      startTestServer(kind, { metrics: { token: TOKEN } }),
      startTestServer(kind, { metrics: { port: 0 } }),
      startTestServer(kind),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withToken.close(), withPort.close(), without.close()]);
  });

  it('are not served without METRICS_TOKEN or METRICS_PORT', async () => {
    const answer = await without.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('http_request_duration_seconds');
  });

  it('with METRICS_TOKEN, refuse a missing or wrong token with 401 and a messageKey', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', TOKEN]) {
      const answer = await withToken.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(answer.statusCode, String(authorization)).toBe(401);
      expect(answer.json()).toMatchObject({ messageKey: 'UNAUTHORIZED' });
    }
  });

  it('with METRICS_TOKEN, count requests by route pattern and status, and report streams, pool and Node figures', async () => {
    const user = await withToken.createUser();
    await withToken.app.inject({ method: 'GET', url: '/api/health' });
    await withToken.app.inject({ method: 'GET', url: `/api/users/forget-password/${encodeURIComponent(user.email)}` });
    await withToken.app.inject({ method: 'GET', url: '/api/users/me' });
    const answer = await withToken.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    const text = answer.body;
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1/);
    // The pattern, not the address typed: no series per email address.
    expect(text).toMatch(/route="\/api\/users\/forget-password\/:email",status_code="200"\} 1/);
    expect(text).not.toContain(user.email);
    expect(text).toMatch(/route="\/api\/users\/me",status_code="401"\} 1/);
    expect(text).toMatch(/^portal_event_streams_open 0$/m);
    expect(text).toMatch(/^portal_jobs{state="pending"} \d+$/m);
    expect(text).toMatch(/^portal_jobs{state="failed"} \d+$/m);
    expect(text).toMatch(/^portal_jobs_failed_total \d+$/m);
    expect(text).toMatch(/^portal_webhook_lag_seconds_count \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    if (kind === 'postgres') expect(text).toMatch(/^portal_db_pool_connections\{state="total"\} \d+$/m);
  });

  it('with METRICS_PORT, listen on METRICS_HOST (127.0.0.1 by default), never on HOST (issue 44)', async () => {
    // HOST is every address here, as by default; the metrics port answers no token, so it stays on this machine.
    const local = await startTestServer(kind, { host: '0.0.0.0', metrics: { port: 0 } });
    const chosen = await startTestServer(kind, { host: '0.0.0.0', metrics: { port: 0, host: '127.0.0.2' } });
    try {
      expect(local.app.metricsAddress).toBe('127.0.0.1');
      expect((await fetch(`http://127.0.0.1:${local.app.metricsPort}/metrics`)).status).toBe(200);
      // Another address of this machine (all of 127.0.0.0/8 is loopback on Linux) is not listened on.
      await expect(fetch(`http://127.0.0.2:${local.app.metricsPort}/metrics`)).rejects.toThrow();
      expect(chosen.app.metricsAddress).toBe('127.0.0.2');
      expect((await fetch(`http://127.0.0.2:${chosen.app.metricsPort}/metrics`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${chosen.app.metricsPort}/metrics`)).rejects.toThrow();
    } finally {
      await Promise.all([local.close(), chosen.close()]);
    }
  });

  it('with METRICS_PORT, are served on that port without a token and not on the app port', async () => {
    const port = withPort.app.metricsPort;
    expect(port).toBeGreaterThan(0);
    await withPort.app.inject({ method: 'GET', url: '/api/health' });
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1/);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await withPort.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
