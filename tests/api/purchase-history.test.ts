import type { Transaction } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentStatusOf } from '../../server/modules/billing/subscription-actions.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * The purchase history a bookkeeper can use (issue 20, item 5): `GET /subscription/billing/invoice`
 * answers each payment's status, invoice number, tax and the catalogue's names in en and de. Through the
 * real SDK against the stand-in, whose webhooks the portal follows.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;

type Row = {
  id: string;
  status: string;
  paymentStatus: string;
  invoiceNumber: string | null;
  total: { amount: number; currencyCode: string };
  tax: { amount: number; currencyCode: string };
  items: { kind: string | null; i18n: { en: { name: string }; de: { name: string } } }[];
  refund: { status: string; reason: string; amount: number } | null;
};

async function history(server: TestServer, token: string): Promise<Row[]> {
  const response = await call(server, 'GET', '/api/subscription/billing/invoice', token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describeEachDatabase(
  'purchase history',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a trial start is no charge; a returned licence is refunded; the rest is paid, each with its invoice number and tax', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await server().createUser();
      const { access_token: token } = await signIn(server(), user.email, user.password);
      // A buyer in Berlin: 19% VAT on what is charged.
      const saved = await call(server(), 'PATCH', '/api/subscription/billing-info', token, { payload: { country: 'DE', postalCode: '10117' } });
      expect(saved.statusCode, saved.body).toBe(200);
      for (const priceId of [PRICE_IDS.monthly, PRICE_IDS.perpetual2025, PRICE_IDS.perpetual2024]) {
        const checkout = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId } });
        expect(checkout.statusCode, checkout.body).toBe(200);
        expect((await paddle.pay(checkout.json().transactionId, TEST_CARDS.success)).status).toBe(200);
      }
      await paddle.settle(server());

      const licences = (await call(server(), 'GET', '/api/perpetual/license', token)).json() as { id: string; licenceId: string; release: string }[];
      const returned = licences.find((licence) => licence.release === '2024');
      if (!returned) throw new Error(`no 2024 licence: ${JSON.stringify(licences)}`);
      const refund = await call(server(), 'POST', `/api/perpetual/license/${returned.licenceId}/return`, token);
      expect(refund.statusCode, refund.body).toBe(200);
      await paddle.settle(server());

      const rows = await history(server(), token);
      expect(rows).toHaveLength(3);
      const byStatus = Object.fromEntries(rows.map((row) => [row.paymentStatus, row]));
      expect(Object.keys(byStatus).sort()).toEqual(['no_charge', 'paid', 'refunded']);
      // The trial's start: $0.00, nothing to invoice.
      expect(byStatus.no_charge).toMatchObject({ total: { amount: 0, currencyCode: 'USD' }, tax: { amount: 0, currencyCode: 'USD' }, items: [{ kind: 'subscription' }] });
      // 299.00 plus 19% German VAT.
      expect(byStatus.paid).toMatchObject({ id: licences.find((l) => l.release === '2025')?.id, total: { amount: 35581, currencyCode: 'USD' }, tax: { amount: 5681, currencyCode: 'USD' } });
      expect(byStatus.refunded).toMatchObject({ id: returned.id, refund: { status: 'approved', reason: 'customer' } });
      // Paddle's invoice numbers, one per charged payment, all different.
      for (const row of [byStatus.paid, byStatus.refunded]) expect(row?.invoiceNumber).toMatch(/^SBX-\d{5}$/);
      expect(byStatus.paid?.invoiceNumber).not.toBe(byStatus.refunded?.invoiceNumber);
      // The catalogue's names in both languages: the SPA picks the reader's.
      expect(byStatus.no_charge?.items[0]?.i18n).toMatchObject({ en: { name: 'Monthly' }, de: { name: 'Monatlich' } });
      expect(byStatus.paid?.items[0]?.i18n).toMatchObject({ en: { name: 'Shapelab 2025' }, de: { name: 'Shapelab 2025' } });
    });

    it('a renewal the card declines is past due', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const { user } = await paddle.buyer(server(), { card: TEST_CARDS.failsLater, priceId: PRICE_IDS.monthly });
      await paddle.settle(server());
      try {
        await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY + 60_000));
        await paddle.settle(server());
        const { access_token: token } = await signIn(server(), user.email, user.password);
        const rows = await history(server(), token);
        expect(rows.map((row) => row.paymentStatus).sort()).toEqual(['no_charge', 'past_due']);
        expect(rows.find((row) => row.paymentStatus === 'past_due')?.status).toBe('past_due');
      } finally {
        await paddle.travelTo(server(), TEST_NOW);
      }
    });
  },
  () => ({ billing: paddle.billing }),
);

describe('a payment’s status', () => {
  const transaction = (fields: { status?: string; grandTotal: string; adjusted?: string | null }) =>
    ({
      status: fields.status ?? 'completed',
      details: {
        totals: { grandTotal: fields.grandTotal },
        adjustedTotals: fields.adjusted === undefined || fields.adjusted === null ? null : { grandTotal: fields.adjusted },
      },
    }) as unknown as Transaction;

  it('follows Paddle’s adjusted totals, also for a refund made outside the portal', () => {
    expect(paymentStatusOf(transaction({ grandTotal: '2379' }), null)).toBe('paid');
    expect(paymentStatusOf(transaction({ grandTotal: '2379', adjusted: '2379' }), null)).toBe('paid');
    expect(paymentStatusOf(transaction({ grandTotal: '2379', adjusted: '1000' }), null)).toBe('partially_refunded');
    expect(paymentStatusOf(transaction({ grandTotal: '2379', adjusted: '0' }), null)).toBe('refunded');
  });

  it('counts the portal’s approved refund before Paddle’s totals say so; a pending one is still paid', () => {
    expect(paymentStatusOf(transaction({ grandTotal: '2379' }), { status: 'approved', reason: 'customer', amount: 2379 })).toBe('refunded');
    expect(paymentStatusOf(transaction({ grandTotal: '2379' }), { status: 'approved', reason: 'customer', amount: 500 })).toBe('partially_refunded');
    expect(paymentStatusOf(transaction({ grandTotal: '2379' }), { status: 'pending', reason: 'customer', amount: 2379 })).toBe('paid');
    expect(paymentStatusOf(transaction({ grandTotal: '2379' }), { status: 'rejected', reason: 'customer', amount: 2379 })).toBe('paid');
  });

  it('names a failed renewal past due and a $0.00 transaction no charge', () => {
    expect(paymentStatusOf(transaction({ status: 'past_due', grandTotal: '1999' }), null)).toBe('past_due');
    expect(paymentStatusOf(transaction({ grandTotal: '0' }), null)).toBe('no_charge');
  });
});
