import { expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { AdjustableClock } from '../../server/clock.js';
import { startTestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

describeEachDatabase('development-only endpoints', (server) => {
  it('exist outside production and are absent in production', async () => {
    expect((await server().app.inject({ method: 'GET', url: '/api/dev/outbox?to=a@example.com' })).statusCode).toBe(200);
    const other = await startTestServer(server().kind);
    const production = await buildApp({
      // Even handed stand-in billing settings, production serves no stand-in Paddle.js or its checkout.
      config: {
        ...other.config,
        nodeEnv: 'production',
        mailTransport: 'smtp',
        smtpUrl: 'smtp://127.0.0.1:2525',
        billing: { sandbox: true, apiKey: 'x', environment: 'http://127.0.0.1:9', clientToken: 'test_x', webhookSecret: 'y' },
      },
      db: other.db,
      clock: new AdjustableClock(),
    });
    const outbox = await production.inject({ method: 'GET', url: '/api/dev/outbox?to=a@example.com' });
    expect(outbox.statusCode).toBe(404);
    expect(outbox.json().messageKey).toBe('NOT_FOUND');
    const clock = await production.inject({ method: 'POST', url: '/api/dev/clock', payload: { advanceSeconds: 60 } });
    expect(clock.statusCode).toBe(404);
    for (const url of ['/paddle-sandbox/paddle.js', '/paddle-sandbox/checkout']) {
      expect((await production.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect((await production.inject({ method: 'POST', url: '/paddle-sandbox/api/pay', payload: {} })).statusCode).toBe(404);
    await production.close();
    await other.close().catch(() => undefined);
  });
});
