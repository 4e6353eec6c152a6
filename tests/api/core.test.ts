import { expect, it } from 'vitest';
import { describeEachDatabase } from './describe-each-database.js';

describeEachDatabase('server core', (server) => {
  it('GET /api/health answers ok after a database round trip', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('health fails as a 500 DEFAULT, without a stack, when the database is gone', async () => {
    const { startTestServer } = await import('../fixtures/server.js');
    const other = await startTestServer(server().kind);
    await other.db.destroy();
    const response = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ messageKey: 'DEFAULT', message: expect.any(String) });
    expect(response.body).not.toMatch(/at .*\.ts|stack/i);
    await other.close().catch(() => undefined);
  });

  it('echoes a sane x-request-id and replaces a hostile one', async () => {
    const kept = await server().app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await server().app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': '<script>'.repeat(20) },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('API answers carry a CSP that lets nothing load or frame them, and the usual hardening headers', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('pages get a CSP that allows only this origin for scripts, frames and connections', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/login' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('unknown /api paths get a 404 NOT_FOUND, rate limited to 60 a minute', async () => {
    const first = await server().app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(first.statusCode).toBe(404);
    expect(first.json()).toEqual({ messageKey: 'NOT_FOUND', message: 'Not found.' });
    let last = first;
    for (let i = 0; i <= 60; i += 1) {
      last = await server().app.inject({ method: 'GET', url: `/api/no-such-thing-${i}`, remoteAddress: '10.9.9.9' });
    }
    expect(last.statusCode).toBe(429);
    expect(last.json().messageKey).toBe('TOO_MANY_REQUESTS');
  });

  it('answers errors in the language of Accept-Language', async () => {
    const response = await server().app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ messageKey: 'UNAUTHORIZED', message: 'Nicht autorisiert.' });
  });

  it('a non-API path without a built SPA is a 404 in the same shape', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/some/page' });
    expect(response.statusCode).toBe(404);
    expect(response.json().messageKey).toBe('NOT_FOUND');
  });
});
