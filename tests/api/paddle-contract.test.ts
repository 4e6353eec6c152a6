import { randomBytes } from 'node:crypto';
import { ApiError, Environment, LogLevel, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { startPaddleSandbox } from '../../server/sandbox/index.js';
import { TEST_NOW } from '../fixtures/server.js';

/**
 * The contract between the portal and Paddle Billing: the calls server/billing and server/modules/billing
 * make, through the real SDK, and the fields and errors they rely on. The same suite runs against the
 * offline stand-in (always) and against a real Paddle sandbox account when PADDLE_API_KEY is set (with
 * PADDLE_ENVIRONMENT=sandbox; never production), so the stand-in cannot drift from Paddle unnoticed.
 * The real account needs the catalogue the portal expects: products with custom_data.kind
 * 'subscription' (monthly and yearly prices) and 'perpetual' (custom_data.shapelabRelease).
 */
type Target = { name: string; connect: () => Promise<{ paddle: Paddle; close: () => Promise<void> }> };

const standIn: Target = {
  name: 'offline stand-in',
  async connect() {
    const sandbox = await startPaddleSandbox({ host: '127.0.0.1', clock: new FixedClock(TEST_NOW), dataFile: null });
    return { paddle: new Paddle(sandbox.apiKey, { environment: sandbox.baseUrl as Environment, logLevel: LogLevel.none }), close: sandbox.close };
  },
};

const realKey = process.env.PADDLE_API_KEY;
const realEnvironment = process.env.PADDLE_ENVIRONMENT ?? 'sandbox';
const skipReal = !realKey
  ? 'PADDLE_API_KEY is not set'
  : realEnvironment !== 'sandbox'
    ? `PADDLE_ENVIRONMENT is ${realEnvironment}; the contract suite runs only against a Paddle sandbox account`
    : null;
const realPaddle: Target = {
  name: 'Paddle sandbox',
  async connect() {
    return { paddle: new Paddle(realKey ?? '', { environment: Environment.sandbox, logLevel: LogLevel.none }), close: async () => undefined };
  },
};

if (skipReal) process.stderr.write(`Paddle contract suite against a real Paddle sandbox skipped: ${skipReal}.\n`);

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}

async function apiError(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

for (const target of [standIn, realPaddle]) {
  const skip = target === realPaddle ? skipReal : null;
  describe.skipIf(skip !== null)(`Paddle contract [${target.name}]${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let paddle: Paddle;
    let close: () => Promise<void> = async () => undefined;
    const email = `contract-${randomBytes(5).toString('hex')}@example.com`;

    beforeAll(async () => {
      ({ paddle, close } = await target.connect());
    });
    afterAll(async () => {
      await close();
    });

    async function plan(interval: 'month' | 'year') {
      const products = await all(paddle.products.list({ include: ['prices'], status: ['active'] }));
      const subscription = products.find((product) => (product.customData as { kind?: string } | null)?.kind === 'subscription');
      const price = subscription?.prices?.find((p) => p.status === 'active' && p.type !== 'custom' && p.billingCycle?.interval === interval);
      if (!price) throw new Error(`no active ${interval} plan price in the catalogue`);
      return price;
    }

    it('lists the catalogue with the fields the portal reads', async () => {
      const products = await all(paddle.products.list({ include: ['prices'], status: ['active'] }));
      const kinds = products.map((product) => (product.customData as { kind?: string } | null)?.kind);
      expect(kinds).toEqual(expect.arrayContaining(['subscription', 'perpetual']));
      for (const product of products.filter((p) => (p.customData as { kind?: string } | null)?.kind === 'perpetual')) {
        expect(typeof (product.customData as { shapelabRelease?: unknown }).shapelabRelease).toBe('string');
      }
      const monthly = await plan('month');
      expect(monthly.unitPrice).toEqual({ amount: expect.stringMatching(/^\d+$/), currencyCode: expect.any(String) });
      expect(monthly.trialPeriod).toMatchObject({ interval: 'day', frequency: 14 });
      expect(await plan('year')).toMatchObject({ billingCycle: { interval: 'year', frequency: 1 } });
      const discounts = await all(paddle.discounts.list({ status: ['active'] }));
      for (const discount of discounts) expect(['percentage', 'flat', 'flat_per_seat']).toContain(discount.type);
    });

    it('creates a customer once per email, finds it by email, and keeps its address', async () => {
      const created = await paddle.customers.create({ email, name: 'Contract Test' });
      expect(created.id).toMatch(/^ctm_/);
      const again = await apiError(paddle.customers.create({ email }));
      expect(again.code).toBe('customer_already_exists');
      expect((await all(paddle.customers.list({ email: [email] }))).map((c) => c.id)).toEqual([created.id]);
      const address = await paddle.addresses.create(created.id, { countryCode: 'DE', postalCode: '10117', city: 'Berlin' });
      expect(address.id).toMatch(/^add_/);
      expect((await all(paddle.addresses.list(created.id, { status: ['active'] }))).map((a) => a.countryCode)).toEqual(['DE']);
    });

    it('previews prices with tax for a country, amounts as strings of minor units', async () => {
      const monthly = await plan('month');
      const preview = await paddle.pricingPreview.preview({ items: [{ priceId: monthly.id, quantity: 1 }], address: { countryCode: 'DE' } });
      const line = preview.details.lineItems[0];
      expect(line?.price.id).toBe(monthly.id);
      expect(line?.totals).toEqual({ subtotal: expect.stringMatching(/^\d+$/), discount: '0', tax: expect.stringMatching(/^\d+$/), total: expect.stringMatching(/^\d+$/) });
      expect(Number(line?.totals.tax)).toBeGreaterThan(0);
      expect(line?.formattedTotals.total).toMatch(/\d/);
    });

    it('creates a checkout transaction for a customer, gets it, and lists it by customer', async () => {
      const [customer] = await all(paddle.customers.list({ email: [email] }));
      const [address] = await all(paddle.addresses.list(customer?.id ?? '', { status: ['active'] }));
      const monthly = await plan('month');
      const transaction = await paddle.transactions.create({ items: [{ priceId: monthly.id, quantity: 1 }], customerId: customer?.id ?? null, addressId: address?.id ?? null });
      expect(transaction).toMatchObject({ status: 'ready', customerId: customer?.id, currencyCode: monthly.unitPrice.currencyCode });
      expect(transaction.details?.totals?.grandTotal).toMatch(/^\d+$/);
      expect((await paddle.transactions.get(transaction.id)).id).toBe(transaction.id);
      expect((await all(paddle.transactions.list({ customerId: [customer?.id ?? ''] }))).map((t) => t.id)).toContain(transaction.id);
    });

    it('names a missing subscription, transaction and discount not_found', async () => {
      expect((await apiError(paddle.subscriptions.get('sub_01h000000000000000000000zz'))).code).toBe('not_found');
      expect((await apiError(paddle.transactions.get('txn_01h000000000000000000000zz'))).code).toBe('not_found');
      expect((await apiError(paddle.discounts.get('dsc_01h000000000000000000000zz'))).code).toBe('not_found');
    });
  });
}
