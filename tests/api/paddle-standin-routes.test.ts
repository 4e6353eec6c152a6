import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { startSandbox } from '../fixtures/paddle.js';
import { startTestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * The browser side of the Paddle stand-in (server/sandbox/checkout-routes.ts): the script, the frame
 * page, and the calls they make, which carry the client-side token and never the API key.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

describeEachDatabase(
  'Paddle stand-in for the browser',
  (server) => {
    it('tells the SPA how to initialise Paddle.js, and serves the stand-in script', async () => {
      const config = await server().app.inject({ method: 'GET', url: '/api/paddle/config' });
      expect(config.json()).toEqual({ environment: 'sandbox', clientToken: paddle.billing.clientToken, sandboxScript: '/paddle-sandbox/paddle.js' });
      const script = await server().app.inject({ method: 'GET', url: '/paddle-sandbox/paddle.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
      expect(script.body).toContain('window.PaddleBillingV1 =');
      expect(script.body).not.toContain('import type');
    });

    it('keeps pages on this origin with the stand-in, and lets in Paddle’s script and checkout frame with real Paddle', async () => {
      const standIn = String((await server().app.inject({ method: 'GET', url: '/login' })).headers['content-security-policy']);
      expect(standIn).toContain("script-src 'self';");
      expect(standIn).not.toContain('paddle.com');
      const real = await startTestServer(server().kind, {
        billing: { sandbox: false, apiKey: 'pdl_sdbx_apikey_0123456789', environment: 'sandbox', clientToken: 'test_0123456789', webhookSecret: 'pdl_ntfset_0123456789' },
      });
      try {
        const csp = String((await real.app.inject({ method: 'GET', url: '/login' })).headers['content-security-policy']);
        expect(csp).toContain("script-src 'self' https://cdn.paddle.com;");
        expect(csp).toContain('frame-src \'self\' https://buy.paddle.com https://sandbox-buy.paddle.com;');
        expect((await real.app.inject({ method: 'GET', url: '/paddle-sandbox/paddle.js' })).statusCode).toBe(404);
      } finally {
        await real.close();
      }
    });

    it('serves a billed transaction’s invoice as a PDF, and nothing for one not billed', async () => {
      const customer = await paddle.paddle.customers.create({ email: `pdf-${Date.now()}@example.com` });
      const txn = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.perpetual2025, quantity: 1 }], customerId: customer.id });
      const early = await server().app.inject({ method: 'GET', url: `/paddle-sandbox/invoices/${txn.id}.pdf` });
      expect(early.statusCode).toBe(404);
      expect((await paddle.pay(txn.id, '4242424242424242')).status).toBe(200);
      const pdf = await server().app.inject({ method: 'GET', url: `/paddle-sandbox/invoices/${txn.id}.pdf` });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 8).toString()).toBe('%PDF-1.4');
      expect(pdf.rawPayload.toString('latin1')).toContain('Total: $299.00');
      expect((await server().app.inject({ method: 'GET', url: '/paddle-sandbox/invoices/../../etc.pdf' })).statusCode).toBe(404);
    });

    it('lets only this origin frame the checkout page', async () => {
      const page = await server().app.inject({ method: 'GET', url: '/paddle-sandbox/checkout?txn=txn_x' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    });

    it('refuses browser calls without the client-side token, and says what is wrong with bad ones', async () => {
      const items = [{ priceId: PRICE_IDS.monthly, quantity: 1 }];
      const refused = await server().app.inject({ method: 'POST', url: '/paddle-sandbox/api/checkout', payload: { token: 'wrong', items } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
      const token = paddle.billing.clientToken;
      const empty = await server().app.inject({ method: 'POST', url: '/paddle-sandbox/api/checkout', payload: { token } });
      expect(empty.statusCode).toBe(400);
      const unknown = await server().app.inject({ method: 'POST', url: '/paddle-sandbox/api/checkout', payload: { token, items: [{ priceId: 'pri_nope', quantity: 1 }] } });
      expect(unknown.statusCode).toBe(404);
      const created = await server().app.inject({ method: 'POST', url: '/paddle-sandbox/api/checkout', payload: { token, items, discountCode: 'welcome20' } });
      expect(created.statusCode, created.body).toBe(200);
      const described = await server().app.inject({ method: 'POST', url: '/paddle-sandbox/api/transaction', payload: { token, transactionId: created.json().data.transactionId } });
      expect(described.json().data).toMatchObject({ status: 'draft', discount: { code: 'WELCOME20' }, recurring_totals: { subtotal: 19.99, discount: 4 } });
    });
  },
  () => ({ billing: paddle.billing }),
);
