import type { PortalModule } from '../../context.js';
import { BILLING_EMAIL_FOLLOWS_JOB } from '../users/index.js';
import { billingEmailFollowsJob } from './customers.js';
import { billingRoutes } from './routes.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { END_SECOND_TRIAL_JOB, endSecondTrialJob } from './apply-events.js';
import { paddleWebhookRoutes } from './webhook-routes.js';
import { CARD_EXPIRY_JOB, cardExpiryJob } from './card-expiry.js';
import { CHARGEBACK_CANCEL_JOB, chargebackCancelJob } from './chargebacks.js';
import { RECOVERY_MAIL_JOB, recoveryMailJob } from './recoveries.js';
import { retentionRoutes } from './retention-routes.js';

/**
 * Money through Paddle: the catalogue and price previews, the checkout, billing details, the subscription
 * and its changes (pause and resume too), payments and invoices, refunds (the runner that asks Paddle, the
 * 14-day rule, once per customer), failed renewals followed to their end with their mails, the card expiry
 * warning, chargebacks, why customers cancel, the licences as purchases (listed with their payments,
 * returned), and Paddle's webhooks. It owns the tables billing_customers, subscriptions, transactions,
 * refunds, refund_uses, payment_recoveries, card_expiry_warnings, cancellations, chargebacks, checkouts,
 * webhook_events and webhook_rejections (one *-repo.ts each, webhooks-repo.ts for the last two); licences, builds and users it asks of their
 * modules, and the seats above a new limit after a return it releases through the ReleaseSeatsAboveLimit
 * port (devices read the entitlements, which read billing).
 */
export const billingModule: PortalModule = async (app, context) => {
  const db = context.db.kysely;
  const deps = {
    db,
    paddle: context.paddle,
    clock: context.clock,
    refunds: context.refunds,
    bus: context.bus,
    users: context.users,
    releaseSeatsAboveLimit: context.releaseSeatsAboveLimit,
  };
  // Refunds and cancellations decided by webhooks and customers, carried out by jobs.
  context.refunds.register(context.jobs);
  context.jobs.handle(END_SECOND_TRIAL_JOB, endSecondTrialJob(context.paddle));
  context.jobs.handle(BILLING_EMAIL_FOLLOWS_JOB, billingEmailFollowsJob({ db, paddle: context.paddle, clock: context.clock, users: context.users }));
  // Issue 46: a failed renewal's mails, the card expiry warning, a charged-back subscription ended.
  const mailing = { db, clock: context.clock, appUrl: context.config.appUrl, users: context.users };
  context.jobs.handle(RECOVERY_MAIL_JOB, recoveryMailJob(mailing));
  context.jobs.handle(CARD_EXPIRY_JOB, cardExpiryJob(mailing));
  context.jobs.handle(
    CHARGEBACK_CANCEL_JOB,
    chargebackCancelJob({ db, paddle: context.paddle, clock: context.clock, bus: context.bus, releaseSeatsAboveLimit: context.releaseSeatsAboveLimit }),
  );
  await app.register(billingRoutes, { deps, guards: context.guards, paddleConfig: context.paddleClient });
  await app.register(subscriptionRoutes, { deps, guards: context.guards });
  await app.register(retentionRoutes, { db, clock: context.clock, guards: context.guards });
  await app.register(paddleWebhookRoutes, {
    deps: {
      db,
      dialect: context.db.dialect,
      clock: context.clock,
      wallClock: context.wallClock,
      webhookSecret: context.config.billing.webhookSecret,
      bus: context.bus,
      jobs: context.jobs,
      metrics: context.metrics,
      log: context.log,
      releaseSeatsAboveLimit: context.releaseSeatsAboveLimit,
    },
  });
};

export { buyerOf, planBuyerOf } from './buyer.js';
export { Catalogue } from './catalogue.js';
export { KeptMeBilling, ME_BILLING_MAX_AGE_MS, meBillingOf, liveSubscriptions, upgradeEligibility, type MeBillingFacts } from './ownership.js';
export { type ReleaseSeatsAboveLimit } from './purchased-licences.js';
export { RefundRunner, type RefundDeps } from './refunds.js';
export { cancelSubscription, paymentMethodOf, paymentStatusOf, type ActionDeps } from './subscription-actions.js';
export { subscriptionOf } from './subscription-read.js';
export { chargebacksOf, usersWithChargebacks as chargebackMarks } from './chargebacks-repo.js';
export { recoveriesOfUser } from './recoveries-repo.js';
export { latestSubscriptionOf, rememberSubscription, type EntitlingSubscription } from './subscriptions-repo.js';
export { billingRecordsOf, customerIdOf, isPaymentOf, paymentsForSupport } from './account-data-repo.js';
