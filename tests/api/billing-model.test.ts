import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CheckoutResponse, PerpetualLicence } from '../../contract/billing.js';
import type { Subscription } from '../../contract/subscription.js';
import type { Me } from '../../contract/users.js';
import { entitlementsOf } from '../../server/modules/entitlements/index.js';
import { DISCOUNT_IDS, PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { MINIMUM_CHARGE, TEST_CARDS } from '../../server/sandbox/purchases.js';
import {
  call,
  paddleSubscriptionsOf,
  paddleTransactionsOf,
  PLAN_PRICES,
  refundAdjustmentsOf,
  startSandbox,
  strayPaidPlan,
  strayTransaction,
} from '../fixtures/paddle.js';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * A model-based test of the money paths (issues 16 and 46). fast-check generates sequences of what a
 * customer (and Paddle's clock, delivery and the customer's bank) can do: buy a plan from one tab or two,
 * buy a release once or from two tabs at once, with a good, a declined or a failing card (4000 0000 0000
 * 0341: pays when saved, declined on every later charge), cancel, cancel with a refund, continue, switch
 * plan, return a licence, update the card, pause and resume, have the bank charge a payment back, let
 * time pass (renewals, Paddle's retries of a failed one, a pause beginning and ending), and have Paddle
 * deliver one step's webhooks twice and newest first. Each command runs against the real server and the
 * Paddle stand-in and against a small model of what should happen (written from the spec and the issue,
 * not from the server); after every command, once every webhook and refund has settled, the database, the
 * API and Paddle are held to five invariants and to the model:
 * 1. at most one live subscription that is not a duplicate, and /users/me names it;
 * 2. every paid transaction is matched by exactly one grant, one refund or one chargeback, never two refunds;
 * 3. the desktop entitlement is the plan the model predicts (none while paused, kept while Paddle retries);
 * 4. no answer was a 5xx;
 * 5. refund once: no customer is refunded twice for one release or for the subscription.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

/** Fixed, so a failure replays; BILLING_MODEL_SEED explores others. fast-check prints seed and path on failure. */
const SEED = Number(process.env.BILLING_MODEL_SEED ?? 4646);
const NUM_RUNS = Number(process.env.BILLING_MODEL_RUNS ?? 40);
const MAX_COMMANDS = 9;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The spec's numbers (section 9), on purpose not imported from the server. */
const REFUND_WINDOW = 14 * DAY;
const TRIAL = 14 * DAY;
const RENEWAL_LOCK = 30 * MINUTE;
const LIVE_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'paused'];
/** Issue 46: Paddle's last retry of a failed renewal, after which it cancels (contract's PAYMENT_RETRY_DAYS, on purpose not imported). */
const LAST_RETRY = 7 * DAY;
const LICENCE_PRICES = { '2024': 24900, '2025': 29900 } as const;
/** The 2025 release with the upgrade discount (40% off) an owner of 2024 gets through the portal. */
const UPGRADE_PRICE = 17940;

type Interval = 'month' | 'year';
type Release = '2024' | '2025';
type Plan = 'subscription' | 'trial' | 'perpetual' | 'basic';
/** A good card, or 4000 0000 0000 0341: paid when saved, declined on every later charge. */
type Card = 'good' | 'failsLater';

interface Payment {
  at: number;
  amount: number;
}

interface ModelSubscription {
  id: string;
  /** Paddle's created_at: with the id, the order of purchase that decides which of two is kept. */
  createdAt: string;
  interval: Interval;
  status: 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled';
  card: Card;
  /** While past due: the failed charge's moment, from which Paddle retries (and gives up LAST_RETRY later). */
  pastDueSince: number | null;
  /** A pause scheduled for the period's end, and when it resumes by itself (null: until resumed). */
  pauseScheduled: { resumeAt: number | null } | null;
  /** While paused: when it resumes by itself (null: until resumed). */
  resumeAt: number | null;
  /** The bank took one of its payments back: it ended at once. */
  chargedBack: boolean;
  periodStartsAt: number;
  /** The trial's end while trialing; the next renewal (or the scheduled cancellation) otherwise. */
  periodEndsAt: number;
  cancelAtPeriodEnd: boolean;
  /** Paid (non-zero) payments, each billed when Paddle charged it. */
  payments: Payment[];
  duplicate: boolean;
  refunded: boolean;
}

interface ModelLicence {
  release: Release;
  billedAt: number;
  amount: number;
  /** Returned for a refund, or revoked by a chargeback. */
  returned: boolean;
  licenceId: string | null;
  chargedBack: boolean;
}

interface Model {
  now: number;
  subscriptions: ModelSubscription[];
  licences: ModelLicence[];
  /** Refund rows the customer asked for (a cancellation with refund refunds every payment; a return one). */
  customerRefunds: number;
  /** Refund rows of one-off payments for a release already held. */
  licenceDuplicateRefunds: number;
  /** Issue 46 item 1: the customer's one refund of the subscription, and of each release, used (a chargeback uses it too). */
  subscriptionRefundUsed: boolean;
  releaseRefundsUsed: Set<Release>;
  /** Payments the bank took back. */
  chargebacks: number;
}

interface Real {
  server: TestServer;
  user: { id: string; email: string; password: string };
  customerId: string;
  token: string;
  signedInAt: number;
  /** Every answer of the server (and of the stand-in's checkout) this run, for invariant 4. */
  responses: { request: string; status: number; refused?: string }[];
}

// ---------------------------------------------------------------------------------------------------
// The model: what Paddle and the portal should make of each step.

function addPeriod(start: number, interval: Interval): number {
  const next = new Date(start);
  if (interval === 'month') next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.getTime();
}

const byPurchase = (a: ModelSubscription, b: ModelSubscription) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The user's live subscription (at most one: the earliest bought). */
function keeperOf(m: Readonly<Model>): ModelSubscription | undefined {
  return m.subscriptions.filter((s) => !s.duplicate && s.status !== 'canceled').sort(byPurchase)[0];
}

/** What the subscription pages act on: the live one, else the latest that is not a duplicate. */
function currentOf(m: Readonly<Model>): ModelSubscription | undefined {
  return keeperOf(m) ?? m.subscriptions.filter((s) => !s.duplicate).sort(byPurchase).at(-1);
}

const ownsLive = (m: Readonly<Model>, release: Release) => m.licences.some((l) => l.release === release && !l.returned);

function expectedPlan(m: Readonly<Model>): Plan {
  const keeper = keeperOf(m);
  // The stated policy (issue 46 item 5): access stays while Paddle retries; a pause has none.
  if (keeper?.status === 'active' || keeper?.status === 'past_due') return 'subscription';
  if (m.licences.some((l) => !l.returned)) return 'perpetual';
  if (keeper?.status === 'trialing') return 'trial';
  return 'basic';
}

/**
 * Spec section 9: within 30 minutes of a renewal (or of a cancellation or pause taking effect) a subscription
 * cannot be changed. A past-due or paused one renews at no set time.
 */
const locked = (s: ModelSubscription, now: number) => (s.status === 'active' || s.status === 'trialing') && s.periodEndsAt > now && s.periodEndsAt - now < RENEWAL_LOCK;

/** The 14-day window of a subscription's refund: every payment, within 14 days of the first. */
function refundWindow(s: ModelSubscription, now: number): { until: number; amount: number } | null {
  if (s.status === 'canceled' || s.refunded || s.payments.length === 0) return null;
  const until = Math.min(...s.payments.map((p) => p.at)) + REFUND_WINDOW;
  return until > now ? { until, amount: s.payments.reduce((sum, p) => sum + p.amount, 0) } : null;
}

/** The refund a cancellation would make now: the window's, unless the customer's one refund was used (issue 46 item 1). */
function refundOffer(m: Readonly<Model>, s: ModelSubscription, now: number): { until: number; amount: number } | null {
  return m.subscriptionRefundUsed ? null : refundWindow(s, now);
}

/** What the model saw happen over a test's runs (a renewal declined, given up...), to show the fixed seed reaches it. */
const modelEvents = new Map<string, number>();
const saw = (event: string) => modelEvents.set(event, (modelEvents.get(event) ?? 0) + 1);

/** A new billing period of `s` from `at`, charged at `chargedAt` (Paddle's start_new_billing_period): paid, or past due on a failing card. */
function startPeriod(s: ModelSubscription, at: number, chargedAt: number): void {
  s.periodStartsAt = at;
  s.periodEndsAt = addPeriod(at, s.interval);
  if (s.card === 'failsLater') {
    s.status = 'past_due';
    s.pastDueSince = at;
    return;
  }
  s.status = 'active';
  s.payments.push({ at: chargedAt, amount: PLAN_PRICES[s.interval] });
}

/**
 * Time passes to `to`, as the stand-in's schedule runs it: cancellations at a period's end, a pause
 * beginning at it and ending at its date, an overdue renewal given up LAST_RETRY after it failed (Paddle's
 * retries of a failing card fail too), and renewals (charged when the clock gets there, or past due).
 */
function advanceModel(m: Model, to: number): void {
  for (const s of m.subscriptions) {
    for (let guard = 0; guard < 100 && s.status !== 'canceled'; guard += 1) {
      if (s.cancelAtPeriodEnd) {
        if (s.periodEndsAt <= to) {
          s.status = 'canceled';
          s.cancelAtPeriodEnd = false;
        }
        break;
      }
      if (s.pauseScheduled && s.periodEndsAt <= to) {
        saw('model: a pause began');
        s.status = 'paused';
        s.resumeAt = s.pauseScheduled.resumeAt;
        s.pauseScheduled = null;
        continue;
      }
      if (s.status === 'paused') {
        if (s.resumeAt === null || s.resumeAt > to) break;
        const at = s.resumeAt;
        s.resumeAt = null;
        saw('model: a pause ended on its date');
        startPeriod(s, at, to);
        continue;
      }
      if (s.status === 'past_due') {
        if ((s.pastDueSince as number) + LAST_RETRY <= to) {
          saw('model: Paddle gave up a renewal');
          s.status = 'canceled';
          s.pastDueSince = null;
        }
        break;
      }
      if (s.periodEndsAt > to) break;
      if (s.card === 'failsLater') {
        saw('model: a renewal declined');
        s.status = 'past_due';
        s.pastDueSince = s.periodEndsAt;
        continue;
      }
      s.payments.push({ at: to, amount: PLAN_PRICES[s.interval] });
      s.status = 'active';
      s.periodStartsAt = s.periodEndsAt;
      s.periodEndsAt = addPeriod(s.periodStartsAt, s.interval);
    }
  }
  m.now = to;
}

interface Bought {
  id: string;
  createdAt: string;
  /** When it was paid (its trial or first period starts then). */
  at: number;
  interval: Interval;
  trial: boolean;
  card: Card;
}

/**
 * New subscriptions: every live one but the earliest bought is a duplicate (cancelled at once, its payments
 * refunded). The trial is for a first subscription: a kept one that came with a trial although the user
 * had bought a subscription before it ends its trial now (charged at once).
 */
function addPurchases(m: Model, bought: Bought[]): void {
  const added = bought.map(
    (b): ModelSubscription => ({
      id: b.id,
      createdAt: b.createdAt,
      interval: b.interval,
      status: b.trial ? 'trialing' : 'active',
      card: b.card,
      pastDueSince: null,
      pauseScheduled: null,
      resumeAt: null,
      chargedBack: false,
      periodStartsAt: b.at,
      periodEndsAt: b.trial ? b.at + TRIAL : addPeriod(b.at, b.interval),
      cancelAtPeriodEnd: false,
      payments: b.trial ? [] : [{ at: b.at, amount: PLAN_PRICES[b.interval] }],
      duplicate: false,
      refunded: false,
    }),
  );
  const boughtBefore = (s: ModelSubscription) => m.subscriptions.some((other) => other !== s && byPurchase(other, s) < 0);
  m.subscriptions.push(...added);
  const [keeper, ...duplicates] = m.subscriptions.filter((s) => !s.duplicate && s.status !== 'canceled').sort(byPurchase);
  for (const duplicate of duplicates) {
    duplicate.duplicate = true;
    duplicate.status = 'canceled';
    duplicate.cancelAtPeriodEnd = false;
  }
  // Ended when its webhook has arrived, that is once the step has settled: now.
  if (keeper && added.includes(keeper) && keeper.status === 'trialing' && boughtBefore(keeper)) startPeriod(keeper, m.now, m.now);
}

/** Time passes to `to` in the model and for both clocks; the stand-in renews what fell due and sends its webhooks. */
async function travel(m: Model, r: Real, to: number): Promise<void> {
  await paddle.travelTo(r.server, new Date(to));
  advanceModel(m, to);
}

/**
 * Time passes within a step, webhooks not sent yet (Paddle may take a minute): both clocks move, and the
 * stand-in catches up on renewals at its next request. Under chaotic delivery, what happened before and
 * after arrives in one batch, newest first.
 */
function tick(m: Model, r: Real, to: number): void {
  paddle.clock.set(new Date(to));
  r.server.clock.set(new Date(to));
  advanceModel(m, to);
}

// ---------------------------------------------------------------------------------------------------
// The real system: the server (through its API) and the stand-in (through the SDK and its checkout).

async function api(r: Real, method: 'GET' | 'POST', url: string, payload?: object): Promise<LightMyRequestResponse> {
  const now = r.server.clock.now().getTime();
  // Access tokens last an hour of the server's clock: a fresh sign-in whenever time has moved.
  if (r.signedInAt !== now) {
    r.token = (await signIn(r.server, r.user.email, r.user.password)).access_token;
    r.signedInAt = now;
  }
  const response = await call(r.server, method, url, r.token, payload ? { payload } : {});
  const refused = response.statusCode >= 400 ? ` ${String(response.json<{ messageKey?: string }>().messageKey)}` : '';
  r.responses.push({ request: `${method} ${url}`, status: response.statusCode, ...(refused ? { refused } : {}) });
  return response;
}

async function pay(r: Real, transactionId: string, card: string): Promise<number> {
  const response = await paddle.pay(transactionId, card);
  r.responses.push({ request: `stand-in checkout pays ${transactionId}`, status: response.status });
  return response.status;
}

function expectRefusal(response: LightMyRequestResponse, status: number, messageKey: string, step: string): void {
  expect({ status: response.statusCode, messageKey: response.json<{ messageKey?: string }>().messageKey }, `${step}: ${response.body}`).toEqual({
    status,
    messageKey,
  });
}

function expectOk(response: LightMyRequestResponse, step: string): void {
  expect(response.statusCode, `${step}: ${response.body}`).toBe(200);
}

/** The subscription a paid checkout started, as Paddle has it: its id and created_at decide which is kept. */
async function subscriptionStartedBy(transactionId: string): Promise<{ id: string; createdAt: string }> {
  const transaction = await paddle.paddle.transactions.get(transactionId);
  expect(transaction.subscriptionId, `paid checkout ${transactionId} starts a subscription`).toBeTruthy();
  const subscription = await paddle.paddle.subscriptions.get(transaction.subscriptionId as string);
  return { id: subscription.id, createdAt: new Date(subscription.createdAt).toISOString() };
}

const iso = (ms: number) => new Date(ms).toISOString();
const priceOfPlan = (interval: Interval) => (interval === 'month' ? PRICE_IDS.monthly : PRICE_IDS.yearly);
const priceOfRelease = (release: Release) => (release === '2025' ? PRICE_IDS.perpetual2025 : PRICE_IDS.perpetual2024);
const cardNumber = (card: Card) => (card === 'good' ? TEST_CARDS.success : TEST_CARDS.failsLater);

// ---------------------------------------------------------------------------------------------------
// The invariants, after every command once everything has settled.

async function verify(m: Model, r: Real, step: string): Promise<void> {
  const db = r.server.db.kysely;
  const userId = r.user.id;
  const where = `after ${step} (${r.user.email}, clock ${iso(m.now)})`;
  const [subscriptions, transactions, refunds, licences, chargebacks, uses] = await Promise.all([
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('transactions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('refunds').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('licences').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('chargebacks').select(['transaction_id']).where('user_id', '=', userId).execute(),
    db.selectFrom('refund_uses').select(['scope']).where('user_id', '=', userId).execute(),
  ]);
  const chargedBack = new Set(chargebacks.map((chargeback) => chargeback.transaction_id));

  // 1. One live subscription at most, and /users/me names it.
  const live = subscriptions.filter((s) => LIVE_STATUSES.includes(s.status) && s.duplicate_of === null);
  expect(
    live.length,
    `invariant 1: at most one live subscription that is not a duplicate ${where}; live: ${JSON.stringify(live.map((s) => [s.id, s.status, s.created_at]))}`,
  ).toBeLessThanOrEqual(1);
  const me = await api(r, 'GET', '/api/users/me');
  expectOk(me, where);
  expect(me.json<Me>().subscriptionId, `invariant 1: /users/me subscriptionId is the live subscription ${where}`).toBe(live[0]?.id ?? null);

  // 2. Every paid transaction: exactly one grant, one refund or one chargeback; one refund at most, carried out once at Paddle.
  const paid = transactions.filter((t) => t.status === 'completed' && Number(t.grand_total) > 0);
  const violations: string[] = [];
  for (const t of paid) {
    const its = refunds.filter((refund) => refund.transaction_id === t.id);
    const reasons = its.map((refund) => refund.reason);
    if (chargedBack.has(t.id)) {
      // Taken back by the bank: nothing refunded on top; a licence it bought is revoked.
      const granted = licences.filter((l) => l.transaction_id === t.id);
      const takenBack = its.length === 0 && (t.subscription_id !== null || (granted.length === 1 && granted[0]?.revoked_at !== null));
      if (!takenBack) violations.push(`charged-back payment ${t.id}: refunds ${JSON.stringify(reasons)}, licences ${JSON.stringify(granted.map((l) => l.revoked_at))}`);
    } else if (t.subscription_id) {
      const subscription = subscriptions.find((s) => s.id === t.subscription_id);
      const duplicate = subscription !== undefined && subscription.duplicate_of !== null;
      const grants = subscription && !duplicate && !reasons.includes('customer') ? 1 : 0;
      const consistent = duplicate ? reasons.every((reason) => reason === 'duplicate') : reasons.every((reason) => reason === 'customer');
      if (grants + its.length !== 1 || !consistent) {
        violations.push(
          `subscription payment ${t.id} (${t.grand_total}, ${subscription ? (duplicate ? 'duplicate' : subscription.status) : 'unknown'} subscription ${t.subscription_id}): ${grants} grant(s), refunds ${JSON.stringify(reasons)}`,
        );
      }
    } else {
      const granted = licences.filter((l) => l.transaction_id === t.id);
      const kept = granted.length === 1 && granted[0]?.revoked_at === null && its.length === 0;
      const returned = granted.length === 1 && granted[0]?.revoked_at !== null && its.length === 1 && reasons[0] === 'customer';
      const undone = granted.length === 0 && its.length === 1 && reasons[0] === 'duplicate';
      if (!kept && !returned && !undone) {
        violations.push(
          `one-off payment ${t.id} (${t.grand_total}): licences ${JSON.stringify(granted.map((l) => [l.release, l.revoked_at === null ? 'live' : 'revoked']))}, refunds ${JSON.stringify(reasons)}`,
        );
      }
    }
  }
  for (const refund of refunds) {
    const of = paid.find((t) => t.id === refund.transaction_id);
    if (!of) violations.push(`refund ${refund.id} (${refund.reason}) of ${refund.transaction_id}, which is not a paid transaction of the user`);
    else if (refund.status !== 'approved' || of.refund_status !== 'approved') {
      violations.push(`refund of ${refund.transaction_id} not carried out: refund ${refund.status}, payment ${String(of.refund_status)} (${String(refund.last_error)})`);
    }
  }
  const atPaddle = await paddleTransactionsOf(paddle, r.customerId);
  const adjustments = await refundAdjustmentsOf(
    paddle,
    atPaddle.map((t) => t.id),
  );
  for (const t of atPaddle) {
    const its = adjustments.filter((adjustment) => adjustment.transactionId === t.id);
    const refunded = refunds.some((refund) => refund.transaction_id === t.id);
    if (its.length !== (refunded ? 1 : 0) || its.some((adjustment) => adjustment.status !== 'approved')) {
      violations.push(`Paddle holds ${its.length} refund adjustment(s) ${JSON.stringify(its.map((a) => a.status))} for ${t.id}; the portal ${refunded ? 'one refund' : 'none'}`);
    }
    const grandTotal = Number(t.details?.totals?.grandTotal ?? 0);
    if (t.status === 'completed' && grandTotal > 0 && !paid.some((p) => p.id === t.id && Number(p.grand_total) === grandTotal)) {
      violations.push(`Paddle's completed payment ${t.id} (${grandTotal}) is not recorded as paid by the portal`);
    }
  }
  expect(violations, `invariant 2: every paid transaction has exactly one grant or one refund ${where}`).toEqual([]);

  // 3. The desktop entitlement.
  const { entitlement } = await entitlementsOf(db, userId, r.server.clock.now());
  expect(entitlement.plan, `invariant 3: the desktop entitlement ${where}`).toBe(expectedPlan(m));

  // 4. No 5xx, from the server or the stand-in.
  expect(
    r.responses.filter((response) => response.status >= 500),
    `invariant 4: no 5xx ${where}`,
  ).toEqual([]);

  // 5. Refund once (issue 46 item 1): the customer was refunded for one subscription at most, and for one
  // purchase of each release at most; and the uses recorded are the model's.
  const customerRefunds = refunds.filter((refund) => refund.reason === 'customer');
  const refundedSubscriptions = new Set(customerRefunds.flatMap((refund) => (refund.subscription_id ? [refund.subscription_id] : [])));
  const refundedLicences = new Map<string, Set<string>>();
  for (const refund of customerRefunds) {
    if (!refund.release || !refund.licence_id) continue;
    refundedLicences.set(refund.release, (refundedLicences.get(refund.release) ?? new Set()).add(refund.licence_id));
  }
  expect(
    { subscriptions: refundedSubscriptions.size, releases: [...refundedLicences].filter(([, licenceIds]) => licenceIds.size > 1).map(([release]) => release) },
    `invariant 5: refunded once per release and once for the subscription ${where}`,
  ).toEqual({ subscriptions: Math.min(refundedSubscriptions.size, 1), releases: [] });
  expect(
    uses.map((use) => use.scope).sort(),
    `model: the refunds used ${where}`,
  ).toEqual([...(m.subscriptionRefundUsed ? ['subscription'] : []), ...[...m.releaseRefundsUsed].map((release) => `release:${release}`)].sort());
  expect(chargebacks.length, `model: chargebacks ${where}`).toBe(m.chargebacks);

  // The model in detail: the kept subscription, its state and payments, the duplicates undone, what the
  // subscription page shows, the live licences and the refunds asked for.
  const keeper = keeperOf(m);
  expect(
    live.map((s) => ({ id: s.id, status: s.status, interval: s.billing_interval, cancelling: s.scheduled_change_action === 'cancel', pausing: s.scheduled_change_action === 'pause' })),
    `model: the live subscription ${where}`,
  ).toEqual(keeper ? [{ id: keeper.id, status: keeper.status, interval: keeper.interval, cancelling: keeper.cancelAtPeriodEnd, pausing: keeper.pauseScheduled !== null }] : []);
  expect(
    subscriptions
      .filter((s) => s.duplicate_of !== null)
      .map((s) => [s.id, s.status])
      .sort(),
    `model: the subscriptions undone as duplicates, cancelled at once ${where}`,
  ).toEqual(
    m.subscriptions
      .filter((s) => s.duplicate)
      .map((s) => [s.id, 'canceled'])
      .sort(),
  );
  if (keeper) {
    expect(
      paid
        .filter((t) => t.subscription_id === keeper.id)
        .map((t) => Number(t.grand_total))
        .sort(),
      `model: the payments of the live subscription ${where}`,
    ).toEqual(keeper.payments.map((p) => p.amount).sort());
  }
  const current = currentOf(m);
  const shown = await api(r, 'GET', '/api/subscription/user');
  expectOk(shown, where);
  const offer = current ? refundOffer(m, current, m.now) : null;
  const body = shown.json<Subscription | null>();
  const pauseOf = (s: ModelSubscription) => (s.pauseScheduled ? { resumesAt: s.pauseScheduled.resumeAt } : s.status === 'paused' ? { resumesAt: s.resumeAt } : null);
  expect(
    body === null
      ? null
      : { status: body.status, refund: body.refund, refundUsed: body.refundUsed, pastDueUntil: body.pastDue?.endsAt ?? null, pause: body.pause ? { resumesAt: body.pause.resumesAt } : null },
    `model: GET /subscription/user ${where}`,
  ).toEqual(
    current
      ? {
          status: current.status,
          refund: offer ? { until: iso(offer.until), amount: { amount: offer.amount, currencyCode: 'USD' } } : null,
          refundUsed: m.subscriptionRefundUsed,
          pastDueUntil: current.status === 'past_due' ? iso((current.pastDueSince as number) + LAST_RETRY) : null,
          pause: (() => {
            const pause = pauseOf(current);
            return pause ? { resumesAt: pause.resumesAt === null ? null : iso(pause.resumesAt) } : null;
          })(),
        }
      : null,
  );
  expect(
    licences
      .filter((l) => l.revoked_at === null)
      .map((l) => l.release)
      .sort(),
    `model: live licences ${where}`,
  ).toEqual(
    m.licences
      .filter((l) => !l.returned)
      .map((l) => l.release)
      .sort(),
  );
  expect(
    {
      customer: refunds.filter((refund) => refund.reason === 'customer').length,
      licenceDuplicates: refunds.filter((refund) => refund.reason === 'duplicate' && refund.subscription_id === null).length,
    },
    `model: refunds ${where}`,
  ).toEqual({ customer: m.customerRefunds, licenceDuplicates: m.licenceDuplicateRefunds });
}

// ---------------------------------------------------------------------------------------------------
// The commands.

abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>): boolean {
    return true;
  }

  /** The requests, with what each should answer, and the model's update. */
  abstract act(m: Model, r: Real): Promise<void>;

  abstract toString(): string;

  /** Whether a minute passes before the step (a customer's clicks are not in the same millisecond). */
  takesAMinute(): boolean {
    return true;
  }

  async run(m: Model, r: Real): Promise<void> {
    if (process.env.BILLING_MODEL_TRACE) console.log(`STEP ${this.toString()} | subs=${m.subscriptions.length} live=${keeperOf(m) ? 1 : 0}`);
    if (this.takesAMinute()) await travel(m, r, m.now + MINUTE);
    await this.act(m, r);
    await paddle.settle(r.server);
    await verify(m, r, this.toString());
  }
}

type Tabs = 'one' | 'portal twice' | 'portal + stray trial' | 'portal + stray paid' | 'stray trial' | 'stray paid';

/**
 * A plan bought through the portal (checkout, then the stand-in's checkout pays), from one tab or from
 * two opened before either was paid (paid in either order, at the same moment or a minute apart), or
 * opened around the portal altogether (which the portal cannot refuse: the webhook must undo a second
 * live subscription).
 */
class BuySubscription extends Step {
  constructor(
    private readonly tabs: Tabs,
    private readonly interval: Interval,
    private readonly card: string,
    private readonly order: 'as opened' | 'reversed',
    private readonly apart: boolean,
  ) {
    super();
  }

  toString() {
    const two = this.tabs.includes('+') ? `, paid ${this.order}${this.apart ? ' a minute apart' : ' at once'}` : '';
    const card = this.card === TEST_CARDS.declined ? ', declined card' : this.card === TEST_CARDS.failsLater ? ', a card declined on later charges' : '';
    return `buy ${this.interval}ly plan (${this.tabs}${two}${card})`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const hadBefore = m.subscriptions.length > 0;
    const live = keeperOf(m) !== undefined;
    const priceId = priceOfPlan(this.interval);
    const tabs: { id: string; trial: boolean }[] = [];
    if (this.tabs === 'one' || this.tabs.startsWith('portal')) {
      for (let tab = 0; tab < (this.tabs === 'portal twice' ? 2 : 1); tab += 1) {
        const checkout = await api(r, 'POST', '/api/paddle/checkout', { priceId });
        if (live) {
          expectRefusal(checkout, 409, 'SUBSCRIPTION_EXISTS', step);
          continue;
        }
        expectOk(checkout, step);
        const opened = checkout.json<CheckoutResponse>();
        // The 14-day trial is for a first subscription only; the refund once per customer (issue 46 item 1).
        expect(opened.trialDays, `${step}: trial offered`).toBe(hadBefore ? null : 14);
        expect(opened.refundable, `${step}: refundable`).toBe(!m.subscriptionRefundUsed);
        if (tab === 1) expect(opened.transactionId, `${step}: the second tab gets the open transaction`).toBe(tabs[0]?.id);
        tabs.push({ id: opened.transactionId, trial: !hadBefore });
      }
    }
    if (this.tabs.endsWith('stray trial')) tabs.push({ id: (await strayTransaction(paddle, r.customerId, priceId)).id, trial: true });
    if (this.tabs.endsWith('stray paid')) tabs.push({ id: (await strayPaidPlan(paddle, r.customerId, this.interval)).id, trial: false });
    if (this.order === 'reversed') tabs.reverse();

    let bought: Bought[] = [];
    const paidOnce = new Set<string>();
    for (const [index, tab] of tabs.entries()) {
      if (index > 0 && this.apart) {
        // A minute apart, Paddle's webhooks of the first payment arrive in between, unless delivery is
        // chaotic: then they are held, and those of both payments arrive together, newest first.
        if (!chaoticDelivery) {
          await paddle.settle(r.server);
          addPurchases(m, bought);
          bought = [];
        }
        tick(m, r, m.now + MINUTE);
      }
      const status = await pay(r, tab.id, this.card);
      if (this.card === TEST_CARDS.declined) {
        expect(status, `${step}: the declined card is refused`).toBe(402);
      } else if (paidOnce.has(tab.id)) {
        expect(status, `${step}: a transaction is paid once`).toBe(400);
      } else {
        expect(status, `${step}: paid`).toBe(200);
        paidOnce.add(tab.id);
        bought.push({ ...(await subscriptionStartedBy(tab.id)), at: m.now, interval: this.interval, trial: tab.trial, card: this.card === TEST_CARDS.failsLater ? 'failsLater' : 'good' });
      }
    }
    addPurchases(m, bought);
  }
}

/** A release bought through the portal, or from two tabs opened around it and paid at the same moment. */
class BuyLicence extends Step {
  constructor(
    private readonly release: Release,
    private readonly tabs: 'portal' | 'two stray tabs at once',
    private readonly card: string,
  ) {
    super();
  }

  toString() {
    return `buy release ${this.release} (${this.tabs}${this.card === TEST_CARDS.declined ? ', declined card' : ''})`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const owned = ownsLive(m, this.release);
    const declined = this.card === TEST_CARDS.declined;
    if (this.tabs === 'portal') {
      const checkout = await api(r, 'POST', '/api/paddle/checkout', { priceId: priceOfRelease(this.release) });
      if (owned) {
        expectRefusal(checkout, 409, 'PRODUCT_ALREADY_OWNED', step);
        return;
      }
      expectOk(checkout, step);
      // The upgrade price applies by itself for an owner of 2024 buying 2025.
      const upgrade = this.release === '2025' && ownsLive(m, '2024');
      expect(checkout.json<CheckoutResponse>().discount?.id ?? null, `${step}: discount`).toBe(upgrade ? DISCOUNT_IDS.upgrade : null);
      expect(checkout.json<CheckoutResponse>().refundable, `${step}: refundable`).toBe(!m.releaseRefundsUsed.has(this.release));
      const status = await pay(r, checkout.json<CheckoutResponse>().transactionId, this.card);
      expect(status, `${step}: the stand-in's checkout`).toBe(declined ? 402 : 200);
      if (!declined) m.licences.push({ release: this.release, billedAt: m.now, amount: upgrade ? UPGRADE_PRICE : LICENCE_PRICES[this.release], returned: false, licenceId: null, chargedBack: false });
      return;
    }
    const tabs = [await strayTransaction(paddle, r.customerId, priceOfRelease(this.release)), await strayTransaction(paddle, r.customerId, priceOfRelease(this.release))];
    const statuses = await Promise.all(tabs.map((tab) => pay(r, tab.id, this.card)));
    expect(statuses, `${step}: the stand-in's checkouts`).toEqual(declined ? [402, 402] : [200, 200]);
    if (declined) return;
    // One licence per release: the payment that did not grant one is refunded in full.
    if (owned) {
      m.licenceDuplicateRefunds += 2;
    } else {
      m.licences.push({ release: this.release, billedAt: m.now, amount: LICENCE_PRICES[this.release], returned: false, licenceId: null, chargedBack: false });
      m.licenceDuplicateRefunds += 1;
    }
  }
}

class Cancel extends Step {
  constructor(private readonly refund: boolean) {
    super();
  }

  toString() {
    return this.refund ? 'cancel with refund' : 'cancel at period end';
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const response = await api(r, 'POST', '/api/subscription/cancel', this.refund ? { refund: true } : undefined);
    if (!current || current.status === 'canceled') {
      expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
      return;
    }
    if (this.refund) {
      // Issue 46 item 1: the customer's one refund of a subscription, named as such even after the window.
      if (m.subscriptionRefundUsed) {
        expectRefusal(response, 409, 'REFUND_ALREADY_USED', step);
        return;
      }
      const offer = refundWindow(current, m.now);
      if (!offer) {
        expectRefusal(response, 409, 'REFUND_WINDOW_CLOSED', step);
        return;
      }
      expectOk(response, step);
      expect(response.json<Subscription>().status, step).toBe('canceled');
      current.status = 'canceled';
      current.cancelAtPeriodEnd = false;
      current.pauseScheduled = null;
      current.pastDueSince = null;
      current.refunded = true;
      m.customerRefunds += current.payments.length;
      m.subscriptionRefundUsed = true;
      return;
    }
    if (current.status === 'paused' || current.status === 'past_due') {
      // A paused subscription runs no period, an overdue one's was not paid: either ends at once.
      expectOk(response, step);
      expect(response.json<Subscription>().status, step).toBe('canceled');
      current.status = 'canceled';
      current.pastDueSince = null;
      current.resumeAt = null;
      return;
    }
    if (locked(current, m.now)) {
      expectRefusal(response, 409, 'SUBSCRIPTION_LOCKED', step);
      return;
    }
    expectOk(response, step);
    expect(response.json<Subscription>().scheduledChange, step).toEqual({ action: 'cancel', effectiveAt: iso(current.periodEndsAt) });
    current.cancelAtPeriodEnd = true;
    // A scheduled pause gives way to the cancellation.
    current.pauseScheduled = null;
  }
}

class Continue extends Step {
  toString() {
    return 'continue';
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const response = await api(r, 'POST', '/api/subscription/continue');
    if (!current) {
      expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
      return;
    }
    if (current.cancelAtPeriodEnd && locked(current, m.now)) {
      expectRefusal(response, 409, 'SUBSCRIPTION_LOCKED', step);
      return;
    }
    // Nothing to continue (no cancellation scheduled, or ended already) answers the subscription as it is.
    expectOk(response, step);
    expect(response.json<Subscription>().status, step).toBe(current.status);
    current.cancelAtPeriodEnd = false;
  }
}

class ChangePlan extends Step {
  constructor(private readonly interval: Interval) {
    super();
  }

  toString() {
    return `switch to ${this.interval}ly`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const response = await api(r, 'POST', '/api/subscription/change', { interval: this.interval });
    if (!current || current.status === 'canceled') return expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
    if (current.interval === this.interval) return expectRefusal(response, 400, 'VALIDATION_FAILED', step);
    if (current.cancelAtPeriodEnd || current.pauseScheduled || current.status === 'paused') return expectRefusal(response, 409, 'SUBSCRIPTION_CHANGE_PENDING', step);
    if (locked(current, m.now)) return expectRefusal(response, 409, 'SUBSCRIPTION_LOCKED', step);
    // An overdue payment: Paddle refuses to charge a change before it is settled.
    if (current.status === 'past_due') return expectRefusal(response, 409, 'PRORATION_NOT_CHARGEABLE', step);
    if (current.status === 'trialing') {
      // While trialing the new plan replaces the old and is first charged when the trial ends.
      expectOk(response, step);
      current.interval = this.interval;
      return;
    }
    // prorated_immediately: a new period starts now (to the minute); the new plan's price less the unused
    // part of the old one is charged, unless that is below Paddle's minimum charge.
    const start = Math.floor(m.now / MINUTE) * MINUTE;
    const totalMinutes = Math.round((current.periodEndsAt - current.periodStartsAt) / MINUTE);
    const unusedMinutes = Math.max(0, Math.floor((current.periodEndsAt - start) / MINUTE));
    const rate = totalMinutes > 0 ? unusedMinutes / totalMinutes : 0;
    const credit = Math.round(PLAN_PRICES[current.interval] * Number(rate.toFixed(6)));
    const due = Math.max(0, PLAN_PRICES[this.interval] - credit);
    if (due > 0 && due < MINIMUM_CHARGE) return expectRefusal(response, 409, 'PRORATION_NOT_CHARGEABLE', step);
    // The failing card is declined on this charge as on any after it was saved.
    if (due > 0 && current.card === 'failsLater') return expectRefusal(response, 409, 'PRORATION_NOT_CHARGEABLE', step);
    expectOk(response, step);
    current.interval = this.interval;
    current.periodStartsAt = start;
    current.periodEndsAt = addPeriod(start, this.interval);
    if (due > 0) current.payments.push({ at: m.now, amount: due });
  }
}

class ReturnLicence extends Step {
  constructor(private readonly release: Release) {
    super();
  }

  /** A licence of the release is held, or was returned (then its id is known, and a second return is tried). */
  override check(m: Readonly<Model>) {
    return m.licences.some((l) => l.release === this.release && (!l.returned || l.licenceId !== null));
  }

  toString() {
    return `return release ${this.release}`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const live = m.licences.find((l) => l.release === this.release && !l.returned);
    if (!live) {
      // Returned already: the licence is gone.
      const returned = m.licences.filter((l) => l.release === this.release && l.licenceId !== null).at(-1);
      expectRefusal(await api(r, 'POST', `/api/perpetual/license/${String(returned?.licenceId)}/return`), 404, 'LICENCE_NOT_FOUND', step);
      return;
    }
    const listed = await api(r, 'GET', '/api/perpetual/license');
    expectOk(listed, step);
    const row = listed.json<PerpetualLicence[]>().find((licence) => licence.release === this.release);
    expect(row, `${step}: the licence is listed`).toBeDefined();
    live.licenceId = row?.licenceId ?? null;
    // Issue 46 item 1: bought again after the release's refund was had, it is not returnable, and says so.
    const used = m.releaseRefundsUsed.has(this.release);
    expect(row?.refundUsed, `${step}: refund used`).toBe(used);
    const returnable = !used && m.now < live.billedAt + REFUND_WINDOW;
    expect(row?.returnableUntil, `${step}: returnable until`).toBe(returnable ? iso(live.billedAt + REFUND_WINDOW) : null);
    const response = await api(r, 'POST', `/api/perpetual/license/${String(live.licenceId)}/return`);
    if (used) return expectRefusal(response, 409, 'REFUND_ALREADY_USED', step);
    if (!returnable) return expectRefusal(response, 409, 'REFUND_WINDOW_CLOSED', step);
    expectOk(response, step);
    expect(response.json<{ refund: { amount: number; currencyCode: string } }>().refund, step).toEqual({ amount: live.amount, currencyCode: 'USD' });
    live.returned = true;
    m.customerRefunds += 1;
    m.releaseRefundsUsed.add(this.release);
  }
}

/** Issue 46 item 5: a new card through the payment method update: a good one settles an overdue renewal at once. */
class UpdateCard extends Step {
  constructor(private readonly card: Card) {
    super();
  }

  toString() {
    return `update the card (${this.card === 'good' ? 'a good card' : 'a card declined on later charges'})`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const response = await api(r, 'POST', '/api/subscription/payment-method');
    if (!current || current.status === 'canceled') return expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
    expectOk(response, step);
    expect(await pay(r, response.json<{ transactionId: string }>().transactionId, cardNumber(this.card)), `${step}: the card is saved`).toBe(200);
    current.card = this.card;
    if (current.status === 'past_due' && this.card === 'good') {
      saw('model: an overdue renewal settled by a new card');
      // The overdue renewal is collected now, on the period it renews.
      current.payments.push({ at: m.now, amount: PLAN_PRICES[current.interval] });
      current.status = 'active';
      current.periodStartsAt = current.pastDueSince as number;
      current.periodEndsAt = addPeriod(current.periodStartsAt, current.interval);
      current.pastDueSince = null;
    }
  }
}

/** Issue 46 item 7: Paddle's scheduled pause at the period's end, until a date or until resumed. */
class Pause extends Step {
  constructor(private readonly days: number | null) {
    super();
  }

  toString() {
    return this.days === null ? 'pause until resumed' : `pause for ${this.days} days`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const resumeAt = current && this.days !== null ? current.periodEndsAt + this.days * DAY : null;
    const response = await api(r, 'POST', '/api/subscription/pause', resumeAt === null ? undefined : { resumeAt: iso(resumeAt) });
    if (!current || current.status === 'canceled') return expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
    if (current.status === 'trialing') return expectRefusal(response, 409, 'PAUSE_NOT_IN_TRIAL', step);
    if (current.status === 'past_due') return expectRefusal(response, 409, 'SUBSCRIPTION_PAST_DUE', step);
    if (current.cancelAtPeriodEnd || current.pauseScheduled || current.status === 'paused') return expectRefusal(response, 409, 'SUBSCRIPTION_CHANGE_PENDING', step);
    if (locked(current, m.now)) return expectRefusal(response, 409, 'SUBSCRIPTION_LOCKED', step);
    expectOk(response, step);
    current.pauseScheduled = { resumeAt };
  }
}

/** Issue 46 item 7: a scheduled pause withdrawn, or a running one ended now (a new period, charged). */
class Resume extends Step {
  toString() {
    return 'resume';
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const current = currentOf(m);
    const response = await api(r, 'POST', '/api/subscription/resume');
    if (!current) return expectRefusal(response, 404, 'SUBSCRIPTION_NOT_FOUND', step);
    if (current.pauseScheduled) {
      if (locked(current, m.now)) return expectRefusal(response, 409, 'SUBSCRIPTION_LOCKED', step);
      expectOk(response, step);
      current.pauseScheduled = null;
      return;
    }
    if (current.status !== 'paused') return expectRefusal(response, 409, 'SUBSCRIPTION_NOT_PAUSED', step);
    expectOk(response, step);
    current.resumeAt = null;
    startPeriod(current, m.now, m.now);
  }
}

/**
 * Issue 46 item 9: the customer's bank takes a payment back (the stand-in's control): the latest payment of
 * the subscription, which ends it at once, or a licence's, which revokes it. Either uses the refund.
 */
class Chargeback extends Step {
  constructor(private readonly target: 'subscription' | 'licence') {
    super();
  }

  override check(m: Readonly<Model>) {
    if (this.target === 'licence') return m.licences.some((l) => !l.returned);
    const current = currentOf(m);
    return current !== undefined && current.payments.length > 0 && !current.refunded && !current.chargedBack;
  }

  toString() {
    return `a chargeback of ${this.target === 'subscription' ? "the subscription's latest payment" : 'a licence'}`;
  }

  async act(m: Model, r: Real) {
    const step = this.toString();
    const db = r.server.db.kysely;
    let transactionId: string | null = null;
    if (this.target === 'subscription') {
      const current = currentOf(m) as ModelSubscription;
      const payment = await db
        .selectFrom('transactions')
        .select('id')
        .where('subscription_id', '=', current.id)
        .where('status', '=', 'completed')
        .where('grand_total', '>', 0)
        .where('refund_status', 'is', null)
        .orderBy('billed_at', 'desc')
        .executeTakeFirst();
      transactionId = payment?.id ?? null;
      current.chargedBack = true;
      if (current.status !== 'canceled') {
        current.status = 'canceled';
        current.cancelAtPeriodEnd = false;
        current.pauseScheduled = null;
        current.pastDueSince = null;
        current.resumeAt = null;
      }
      m.subscriptionRefundUsed = true;
    } else {
      const licence = m.licences.filter((l) => !l.returned).at(-1) as ModelLicence;
      const row = await db.selectFrom('licences').select('transaction_id').where('user_id', '=', r.user.id).where('release', '=', licence.release).where('revoked_at', 'is', null).executeTakeFirst();
      transactionId = row?.transaction_id ?? null;
      licence.returned = true;
      licence.chargedBack = true;
      m.releaseRefundsUsed.add(licence.release);
    }
    expect(transactionId, `${step}: the payment`).toBeTruthy();
    const response = await paddle.chargeback(String(transactionId));
    r.responses.push({ request: 'stand-in chargeback :id', status: response.status });
    expect(response.status, `${step}: the bank's chargeback`).toBe(200);
    m.chargebacks += 1;
  }
}

class Advance extends Step {
  constructor(private readonly hours: number) {
    super();
  }

  toString() {
    return `advance ${this.hours}h`;
  }

  override takesAMinute() {
    return false;
  }

  async act(m: Model, r: Real) {
    await travel(m, r, m.now + this.hours * HOUR);
  }
}

/** The next 14-day deadline (of the live subscription's first payment, or of a licence): to it, or a minute before. */
function nextDeadline(m: Readonly<Model>): number | undefined {
  const keeper = keeperOf(m);
  const deadlines = [
    ...(keeper && keeper.payments.length > 0 ? [Math.min(...keeper.payments.map((p) => p.at)) + REFUND_WINDOW] : []),
    ...m.licences.filter((l) => !l.returned).map((l) => l.billedAt + REFUND_WINDOW),
  ].filter((at) => at > m.now + MINUTE);
  return deadlines.length > 0 ? Math.min(...deadlines) : undefined;
}

class AdvanceToDeadline extends Step {
  constructor(private readonly early: boolean) {
    super();
  }

  override check(m: Readonly<Model>) {
    return nextDeadline(m) !== undefined;
  }

  override takesAMinute() {
    return false;
  }

  toString() {
    return this.early ? 'advance to a minute before the next 14-day deadline' : 'advance to the next 14-day deadline';
  }

  async act(m: Model, r: Real) {
    await travel(m, r, (nextDeadline(m) as number) - (this.early ? MINUTE : 0));
  }
}

/** To the live subscription's next renewal (or scheduled end): inside the 30-minute lock before it, or just past it. */
class AdvanceToPeriodEnd extends Step {
  constructor(private readonly offsetMinutes: number) {
    super();
  }

  override check(m: Readonly<Model>) {
    const keeper = keeperOf(m);
    return keeper !== undefined && keeper.periodEndsAt + this.offsetMinutes * MINUTE > m.now;
  }

  override takesAMinute() {
    return false;
  }

  toString() {
    return `advance to ${Math.abs(this.offsetMinutes)} minute(s) ${this.offsetMinutes < 0 ? 'before' : 'after'} the end of the period`;
  }

  async act(m: Model, r: Real) {
    await travel(m, r, (keeperOf(m) as ModelSubscription).periodEndsAt + this.offsetMinutes * MINUTE);
  }
}

/** To Paddle's last try of an overdue renewal (issue 46 item 5): a minute before it, or just after it gave up. */
class AdvanceToLastRetry extends Step {
  constructor(private readonly early: boolean) {
    super();
  }

  override check(m: Readonly<Model>) {
    const keeper = keeperOf(m);
    return keeper?.status === 'past_due' && (keeper.pastDueSince as number) + LAST_RETRY - (this.early ? MINUTE : -MINUTE) > m.now;
  }

  override takesAMinute() {
    return false;
  }

  toString() {
    return this.early ? "advance to a minute before Paddle's last try" : "advance to just after Paddle's last try";
  }

  async act(m: Model, r: Real) {
    const keeper = keeperOf(m) as ModelSubscription;
    await travel(m, r, (keeper.pastDueSince as number) + LAST_RETRY + (this.early ? -MINUTE : MINUTE));
  }
}

/** Whether the stand-in delivers chaotically (during a Chaotic step). */
let chaoticDelivery = false;

/** One step with Paddle's at-least-once delivery at its worst: every webhook twice, newest first. */
class Chaotic extends Step {
  constructor(private readonly inner: Step) {
    super();
  }

  override check(m: Readonly<Model>) {
    return this.inner.check(m);
  }

  override takesAMinute() {
    return this.inner.takesAMinute();
  }

  toString() {
    return `chaotic delivery: ${this.inner.toString()}`;
  }

  async act(m: Model, r: Real) {
    paddle.sandbox.setDelivery('chaotic');
    chaoticDelivery = true;
    try {
      await this.inner.act(m, r);
      await paddle.settle(r.server);
    } finally {
      paddle.sandbox.setDelivery('ordered');
      chaoticDelivery = false;
    }
  }
}

const interval = fc.constantFrom<Interval>('month', 'year');
const release = fc.constantFrom<Release>('2024', '2025');
const card = fc.oneof({ arbitrary: fc.constant<string>(TEST_CARDS.success), weight: 4 }, { arbitrary: fc.constant<string>(TEST_CARDS.declined), weight: 1 });
/** A plan's card may also be the one declined on every later charge (issue 46 item 5). */
const planCard = fc.oneof(
  { arbitrary: fc.constant<string>(TEST_CARDS.success), weight: 3 },
  { arbitrary: fc.constant<string>(TEST_CARDS.declined), weight: 1 },
  { arbitrary: fc.constant<string>(TEST_CARDS.failsLater), weight: 2 },
);
const hours = fc.oneof(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 49, max: 40 * 24 }));

const buySubscription: fc.Arbitrary<Step> = fc
  .record({
    tabs: fc.constantFrom<Tabs>('one', 'portal twice', 'portal + stray trial', 'portal + stray paid', 'stray trial', 'stray paid'),
    interval,
    card: planCard,
    order: fc.constantFrom<'as opened' | 'reversed'>('as opened', 'reversed'),
    apart: fc.boolean(),
  })
  .map(({ tabs, interval: plan, card: used, order, apart }) => new BuySubscription(tabs, plan, tabs === 'one' ? used : TEST_CARDS.success, order, apart));
const buyLicence: fc.Arbitrary<Step> = fc
  .record({ release, tabs: fc.constantFrom<'portal' | 'two stray tabs at once'>('portal', 'two stray tabs at once'), card })
  .map(({ release: bought, tabs, card: used }) => new BuyLicence(bought, tabs, used));
const advance: fc.Arbitrary<Step> = hours.map((h) => new Advance(h));
const cancel: fc.Arbitrary<Step> = fc.boolean().map((refund) => new Cancel(refund));
const returnLicence: fc.Arbitrary<Step> = release.map((returned) => new ReturnLicence(returned));
const updateCard: fc.Arbitrary<Step> = fc.constantFrom<Card>('good', 'failsLater').map((used) => new UpdateCard(used));
const pause: fc.Arbitrary<Step> = fc.constantFrom<number | null>(null, 10, 45).map((days) => new Pause(days));
const chargeback: fc.Arbitrary<Step> = fc.constantFrom<'subscription' | 'licence'>('subscription', 'licence').map((target) => new Chargeback(target));
const steps: fc.Arbitrary<Step>[] = [
  buySubscription,
  buyLicence,
  cancel,
  fc.constant(null).map(() => new Continue()),
  interval.map((plan) => new ChangePlan(plan)),
  returnLicence,
  updateCard,
  pause,
  fc.constant(null).map(() => new Resume()),
  chargeback,
  advance,
  fc.boolean().map((early) => new AdvanceToDeadline(early)),
  fc.constantFrom(-29, 1).map((offset) => new AdvanceToPeriodEnd(offset)),
  fc.boolean().map((early) => new AdvanceToLastRetry(early)),
];
/** Buying, cancelling and returning weigh double; any step may run with chaotic delivery, a purchase more often. */
const chaotic = (step: fc.Arbitrary<Step>) => step.map((inner) => new Chaotic(inner));
const commands = fc
  .commands([...steps, buySubscription, buyLicence, cancel, returnLicence, chaotic(fc.oneof(...steps)), chaotic(buySubscription), chaotic(buyLicence)], {
    maxCommands: MAX_COMMANDS,
    size: 'max',
  })
  // Short sequences rarely get past a first purchase: six steps at least (fast-check makes 0 to 8).
  .filter((sequence) => [...sequence].length >= 6);

/**
 * Who the customer is: new, or returning (subscribed before: a yearly plan paid at once, then cancelled
 * within 14 days with its refund), which changes what a checkout sells (spec section 4: no second trial).
 */
type Customer = 'new' | 'returning' | 'subscriber' | 'failing card';
const customers = fc.constantFrom<Customer>('new', 'returning', 'subscriber', 'failing card');
/**
 * How the run begins: nothing (new), or a history (returning: a yearly plan paid at once, then cancelled
 * within 14 days with its refund; a subscriber: a monthly plan paid at once; a failing card: a first
 * subscription's trial on the card declined on every later charge), so the steps about a subscription
 * (pause, resume, a card update, a chargeback, Paddle's retries) meet one more often than a new customer's would.
 */
const history = (customer: Customer): Step[] => {
  if (customer === 'returning') return [new BuySubscription('stray paid', 'year', TEST_CARDS.success, 'as opened', false), new Cancel(true)];
  if (customer === 'subscriber') return [new BuySubscription('stray paid', 'month', TEST_CARDS.success, 'as opened', false)];
  if (customer === 'failing card') return [new BuySubscription('one', 'month', TEST_CARDS.failsLater, 'as opened', false)];
  return [];
};

/** Where each run starts: a whole hour, a day after wherever the clocks are (they only move forward). */
function nextStart(server: TestServer): number {
  const latest = Math.max(server.clock.now().getTime(), paddle.clock.now().getTime());
  return Math.ceil(latest / HOUR) * HOUR + DAY;
}

async function newCustomer(server: TestServer): Promise<Real> {
  await paddle.travelTo(server, new Date(nextStart(server)));
  await paddle.settle(server);
  const user = await server.createUser();
  const real: Real = { server, user, customerId: '', token: '', signedInAt: Number.NaN, responses: [] };
  const customer = await api(real, 'GET', '/api/subscription/paddle/customer');
  expectOk(customer, 'the Paddle customer');
  real.customerId = customer.json<{ id: string }>().id;
  return real;
}

/** Ends the run's subscriptions at Paddle, so later runs' clock travel renews nothing of theirs. */
async function retire(real: Real): Promise<void> {
  paddle.sandbox.setDelivery('ordered');
  chaoticDelivery = false;
  for (const subscription of await paddleSubscriptionsOf(paddle, real.customerId)) {
    if (subscription.status !== 'canceled') await paddle.paddle.subscriptions.cancel(subscription.id, { effectiveFrom: 'immediately' });
  }
  await paddle.settle(real.server);
}

/** One run: a fresh customer (new or returning), the steps against the model, then the customer's subscriptions ended. */
async function runModel(server: TestServer, customer: Customer, sequence: Iterable<fc.AsyncCommand<Model, Real, boolean>>, answers: Map<string, number>): Promise<void> {
  const real = await newCustomer(server);
  const model: Model = {
    now: server.clock.now().getTime(),
    subscriptions: [],
    licences: [],
    customerRefunds: 0,
    licenceDuplicateRefunds: 0,
    subscriptionRefundUsed: false,
    releaseRefundsUsed: new Set(),
    chargebacks: 0,
  };
  try {
    await fc.asyncModelRun(() => ({ model, real }), [...history(customer), ...sequence]);
  } finally {
    for (const { request, status, refused } of real.responses) {
      const key = `${request.replace(/[0-9a-f-]{36}|txn_\w+/g, ':id')} ${status}${refused ?? ''}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    await retire(real);
  }
}

describeEachDatabase(
  'billing model',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('any sequence of purchases, cancellations, refunds, returns, renewals and chaotic webhooks keeps the money invariants', async () => {
      const started = performance.now();
      let runs = 0;
      const answers = new Map<string, number>();
      modelEvents.clear();
      await fc.assert(
        fc.asyncProperty(customers, commands, async (customer, sequence) => {
          runs += 1;
          await runModel(server(), customer, sequence, answers);
        }),
        { numRuns: NUM_RUNS, seed: SEED, endOnFailure: true },
      );
      // What the runs exercised (each request and its answer, how often): the fixed seed's runs reach the
      // refusals, not only the happy paths (other seeds may not; BILLING_MODEL_TRACE prints the tally).
      for (const [event, count] of modelEvents) answers.set(event, count);
      const tally = [...answers].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => `${key} ×${count}`);
      if (process.env.BILLING_MODEL_TRACE) console.info(`billing model [${server().kind}]: ${runs} runs in ${Math.round(performance.now() - started)} ms\n  ${tally.join('\n  ')}`);
      if (process.env.BILLING_MODEL_SEED === undefined && process.env.BILLING_MODEL_RUNS === undefined) {
        expect([...answers.keys()], 'the generated steps reach the refusals').toEqual(
          expect.arrayContaining([
            'POST /api/paddle/checkout 409 SUBSCRIPTION_EXISTS',
            'POST /api/paddle/checkout 409 PRODUCT_ALREADY_OWNED',
            'POST /api/subscription/cancel 200',
            'POST /api/subscription/cancel 409 REFUND_WINDOW_CLOSED',
            'POST /api/perpetual/license/:id/return 200',
            'POST /api/perpetual/license/:id/return 409 REFUND_WINDOW_CLOSED',
            'stand-in checkout pays :id 400',
            'stand-in checkout pays :id 402',
            // Issue 46: refund once, a failing card given up, pause and resume, a chargeback.
            'POST /api/subscription/cancel 409 REFUND_ALREADY_USED',
            'POST /api/subscription/pause 200',
            'POST /api/subscription/pause 409 PAUSE_NOT_IN_TRIAL',
            'POST /api/subscription/resume 200',
            'POST /api/subscription/payment-method 200',
            'stand-in chargeback :id 200',
            'model: a renewal declined',
            'model: Paddle gave up a renewal',
            'model: a pause began',
          ]),
        );
      }
    }, 180_000);

    // Found by the model (BILLING_MODEL_SEED=1, 2 or 9, say, at 25 runs), kept as a fixed sequence:
    // a returning subscriber pays the stray checkout's trial first and the portal's checkout a minute later;
    // Paddle delivers the later payment's webhooks first. The earlier (stray, trialing) subscription is kept
    // and the paid one undone, but the kept one's trial is not ended: a second free trial, the payment refunded.
    it('a returning subscriber whose stray trial checkout is kept gets no second trial, whatever order the webhooks come in', async () => {
      await runModel(server(), 'returning', [new Chaotic(new BuySubscription('portal + stray trial', 'month', TEST_CARDS.success, 'reversed', true))], new Map());
    });

    // Issue 46, as fixed sequences (the generated ones reach them more rarely): a trial on the failing card
    // declined at its end, settled by a new card, paused at the period's end and resumed, then charged back;
    // and a release bought, returned, bought again and refused its second return, then charged back.
    it('a failing card: declined, settled by a new card, paused, resumed and charged back, the invariants holding at each step', async () => {
      await runModel(
        server(),
        'failing card',
        [new AdvanceToPeriodEnd(1), new UpdateCard('good'), new Pause(10), new AdvanceToPeriodEnd(1), new Resume(), new Chaotic(new Chargeback('subscription'))],
        new Map(),
      );
    });

    it('a release returned once is not refunded twice; its chargeback takes it back', async () => {
      await runModel(
        server(),
        'new',
        [
          new BuyLicence('2025', 'portal', TEST_CARDS.success),
          new ReturnLicence('2025'),
          new BuyLicence('2025', 'portal', TEST_CARDS.success),
          new ReturnLicence('2025'),
          new Chargeback('licence'),
        ],
        new Map(),
      );
    });
  },
  () => ({ billing: paddle.billing }),
);
