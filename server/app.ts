import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createPaddle } from './billing/paddle.js';
import { isMovable, SystemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { EVENT_STREAM_HEARTBEAT_MS } from '../contract/events.js';
import type { Db } from './db/index.js';
import { AccessTokens } from './modules/auth/access-tokens.js';
import { OfflineTokens } from './modules/auth/offline-tokens.js';
import { authRoutes } from './modules/auth/routes.js';
import { Throttle } from './modules/auth/throttle.js';
import { Sessions } from './modules/auth/sessions.js';
import { sessionRoutes } from './modules/auth/session-routes.js';
import { EventBus } from './modules/events/bus.js';
import { PostgresEventBus } from './modules/events/postgres-bus.js';
import { eventRoutes } from './modules/events/routes.js';
import { StreamRegistry } from './modules/events/streams.js';
import { devClockRoutes, devOutboxRoutes } from './modules/dev/routes.js';
import { Readiness } from './modules/health/readiness.js';
import { healthRoutes } from './modules/health/routes.js';
import { JobQueue } from './modules/jobs/queue.js';
import { jobRoutes } from './modules/jobs/routes.js';
import { MAIL_JOB, mailJob } from './modules/mail/jobs.js';
import { createMailer } from './modules/mail/mailer.js';
import { billingRoutes } from './modules/billing/routes.js';
import { RefundRunner } from './modules/billing/refunds.js';
import { couponRoutes } from './modules/coupons/routes.js';
import { deviceRoutes } from './modules/devices/routes.js';
import { registerAnalyticsJobs } from './modules/analytics/jobs.js';
import { analyticsRoutes } from './modules/analytics/routes.js';
import { liteKeyRoutes } from './modules/lite-keys/routes.js';
import { releaseRoutes } from './modules/releases/routes.js';
import { subscriptionRoutes } from './modules/billing/subscription-routes.js';
import { paddleWebhookRoutes } from './modules/billing/webhook-routes.js';
import { END_SECOND_TRIAL_JOB, endSecondTrialJob } from './modules/billing/subscriptions.js';
import { oauthRoutes } from './modules/oauth/routes.js';
import { pruneTwoFactor, twoFactorRoutes } from './modules/two-factor/index.js';
import { accountRoutes } from './modules/users/account-routes.js';
import { overviewRoutes } from './modules/users/overview-routes.js';
import { registrationRoutes } from './modules/users/registration-routes.js';
import { VERIFICATION_RESEND_JOB, verificationResendJob } from './modules/users/registration.js';
import { PASSWORD_RESET_JOB, passwordResetJob } from './modules/users/account.js';
import { BILLING_EMAIL_FOLLOWS_JOB, billingEmailFollowsJob } from './modules/users/email-change.js';
import { UsersRepo } from './modules/users/repo.js';
import { usersGridRoutes } from './modules/users/grid-routes.js';
import { usersRoutes } from './modules/users/routes.js';
import { adminActionRoutes } from './modules/users/admin-action-routes.js';
import { EmailChangesRepo, VerificationsRepo } from './modules/users/verifications.js';
import { createGuards } from './plugins/authentication.js';
import { registerApiNotFound, registerErrorHandler } from './plugins/errors.js';
import { requestLogSerializers, LOG_REDACT_PATHS } from './plugins/logging.js';
import { databaseRateStore, registerPerAddressLimit } from './plugins/rate-limits.js';
import { registerGuessLimits } from './plugins/guess-limits.js';
import { registerJsonBody } from './plugins/json-body.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerOpenApi } from './plugins/openapi.js';
import { requestIdOptions } from './plugins/request-id.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { zodResponseSerializer } from './plugins/serialization.js';
import { registerSpa } from './plugins/spa.js';
import { SANDBOX_SCRIPT_PATH, sandboxCheckoutRoutes } from './sandbox/checkout-routes.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The event stream's heartbeat; spec section 9's 45000 ms unless a test wants to hear one sooner. */
  eventHeartbeatMs?: number;
}

/** How long a closing instance lets its jobs finish before it stops (a job cut off is retried elsewhere). */
const JOBS_DRAIN_MS = 8_000;
const HOUSEKEEPING_MS = 3_600_000;

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest N hops" (proxy-addr's index). */
function trustProxyOption(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting ?? false;
}

/**
 * The map of the server: external plugins, then our own (errors, authentication), then one module per
 * area under /api, then the single-page app. Tests build it with a real database and call `inject`.
 */
export async function buildApp({ config, db, clock, eventHeartbeatMs = EVENT_STREAM_HEARTBEAT_MS }: AppDeps): Promise<FastifyInstance> {
  const logger: FastifyServerOptions['logger'] =
    config.logLevel === 'silent'
      ? false
      : { level: config.logLevel, redact: LOG_REDACT_PATHS, serializers: requestLogSerializers };

  const app = Fastify({
    logger,
    // Behind a load balancer the client address comes from X-Forwarded-For, trusted only from TRUST_PROXY.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1_048_576,
    ...requestIdOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(zodResponseSerializer);
  app.decorateRequest('authUser', null);
  app.decorateRequest('authSession', null);
  app.decorateRequest('twoFactorEnrolmentRequired', false);
  registerJsonBody(app);

  // External plugins.
  registerSecurityHeaders(app, {
    production: config.nodeEnv === 'production',
    // Paddle.js comes from Paddle's CDN and shows its checkout in a frame from Paddle's domain; the
    // offline stand-in serves both from this origin instead.
    ...(config.billing.sandbox || !config.billing.apiKey
      ? {}
      : {
          extraScriptSrc: ['https://cdn.paddle.com'],
          extraFrameSrc: ['https://buy.paddle.com', 'https://sandbox-buy.paddle.com'],
          extraConnectSrc: ['https://*.paddle.com'],
        }),
  });
  // Limits are counted in the database, so every instance shares them.
  const throttle = new Throttle(db.kysely, clock);
  await app.register(rateLimit, { global: false, store: databaseRateStore(throttle) });
  registerPerAddressLimit(app, config.rateLimitPerAddress);
  registerErrorHandler(app);

  // Collaborators, built once and handed to the modules that need them.
  const users = new UsersRepo(db);
  const accessTokens = new AccessTokens(config.jwtSecret, clock);
  const offlineTokens = new OfflineTokens(db.kysely, clock);
  const sessions = new Sessions(db.kysely, clock, accessTokens, offlineTokens, config.appUrl);
  const guards = createGuards({ accessTokens, users, sessions, clock, staffTwoFactor: config.staffTwoFactor });
  await registerOpenApi(app, { guards, serverUrl: config.appUrl });
  registerGuessLimits(app, throttle);
  const mailer = createMailer(config, db.kysely, clock);
  // After-the-answer work as durable jobs, run by this instance's worker (and every other instance's).
  const jobs = new JobQueue({ db: db.kysely, dialect: db.dialect, clock, log: app.log });
  app.decorate('jobs', jobs);
  jobs.handle(MAIL_JOB, mailJob(mailer));
  // SQLite is one instance: its streams hear its events. On PostgreSQL every instance hears every instance's.
  const bus = db.dialect === 'postgres' && config.database.dialect === 'postgres' ? new PostgresEventBus(config.database.url, app.log) : new EventBus();
  const streams = new StreamRegistry(bus, config.maxEventStreams ?? 10_000);
  sessions.announceEndsTo((userId, sessionIds) => bus.announce({ kind: 'sessions-ended', userId, sessionIds }));
  const readiness = new Readiness(db, { worker: () => jobs.isRunning, events: () => bus.connected });
  // Closing: the load balancer hears "not ready" at once, before streams end and the port closes.
  app.addHook('preClose', async () => readiness.markClosing());
  const metrics = await registerMetrics(
    app,
    config.metrics ?? {},
    { openStreams: () => streams.size, jobs: () => jobs.counts(), jobsFailedHere: () => jobs.failedTotal, pool: () => db.pool() },
  );
  const registration = {
    db: db.kysely,
    users,
    verifications: new VerificationsRepo(db.kysely),
    sessions,
    throttle,
    clock,
    appUrl: config.appUrl,
    jobs,
  };
  jobs.handle(VERIFICATION_RESEND_JOB, verificationResendJob(registration));
  const account = { db: db.kysely, users, sessions, offlineTokens, throttle, clock, appUrl: config.appUrl, jobs };
  // Issue 44: the second factor, asked for by every first step of a sign-in.
  const twoFactor = { db: db.kysely, clock, throttle, sessions, users, appUrl: config.appUrl };
  jobs.handle(PASSWORD_RESET_JOB, passwordResetJob(account));

  const paddle = createPaddle(config.billing);
  await app.register(
    async (api) => {
      registerApiNotFound(api);
      await api.register(healthRoutes, { db, readiness });
      await api.register(authRoutes, { deps: { users, offlineTokens, throttle, sessions, twoFactor }, guards });
      await api.register(twoFactorRoutes, { deps: twoFactor, guards });
      await api.register(sessionRoutes, { sessions, guards });
      await api.register(usersRoutes, { admin: { db: db.kysely, dialect: db.dialect, clock, bus }, guards, sessions });
      await api.register(usersGridRoutes, { admin: { db: db.kysely, dialect: db.dialect, clock, bus }, guards });
      await api.register(registrationRoutes, { deps: registration });
      await api.register(accountRoutes, {
        deps: account,
        deletion: { db: db.kysely, paddle, clock, sessions, throttle, jobs, bus },
        emailChange: { db: db.kysely, users, changes: new EmailChangesRepo(db.kysely), throttle, clock, appUrl: config.appUrl, jobs },
        guards,
      });
      await api.register(oauthRoutes, {
        deps: { db: db.kysely, users, sessions, clock, social: config.social, appUrl: config.appUrl, twoFactor },
        guards,
      });
      const paddleConfig = {
        environment: config.billing.environment === 'production' ? ('production' as const) : ('sandbox' as const),
        clientToken: config.billing.clientToken,
        sandboxScript: config.billing.sandbox ? SANDBOX_SCRIPT_PATH : null,
      };
      // Refunds and cancellations decided by webhooks and customers, carried out by jobs.
      const refunds = new RefundRunner({ db: db.kysely, paddle, clock, appUrl: config.appUrl, bus, jobs });
      refunds.register(jobs);
      jobs.handle(END_SECOND_TRIAL_JOB, endSecondTrialJob(paddle));
      jobs.handle(BILLING_EMAIL_FOLLOWS_JOB, billingEmailFollowsJob({ db: db.kysely, paddle, clock, users }));
      await api.register(billingRoutes, { deps: { db: db.kysely, paddle, clock, refunds }, guards, paddleConfig });
      await api.register(subscriptionRoutes, { deps: { db: db.kysely, paddle, clock, refunds }, guards });
      await api.register(overviewRoutes, { deps: { db: db.kysely, paddle, clock, refunds }, guards });
      await api.register(paddleWebhookRoutes, {
        deps: { db: db.kysely, dialect: db.dialect, clock, wallClock: new SystemClock(), webhookSecret: config.billing.webhookSecret, bus, jobs, metrics, log: app.log },
      });
      await api.register(eventRoutes, { bus, streams, guards, heartbeatMs: eventHeartbeatMs });
      const licensing = { db: db.kysely, dialect: db.dialect, clock, bus };
      registerAnalyticsJobs(jobs, licensing);
      await api.register(deviceRoutes, { deps: licensing, guards });
      // The admin user page's actions: the customer's own services, acted by an admin.
      await api.register(adminActionRoutes, {
        deps: { db: db.kysely, sessions, registration, billing: { db: db.kysely, paddle, clock, refunds }, devices: licensing },
        guards,
      });
      await api.register(couponRoutes, { deps: licensing, guards });
      await api.register(liteKeyRoutes, { deps: licensing, guards });
      await api.register(releaseRoutes, { deps: licensing, guards });
      await api.register(analyticsRoutes, { deps: licensing, guards });
      await api.register(jobRoutes, { db: db.kysely, clock, guards });
      if (config.nodeEnv !== 'production') {
        if (config.mailTransport === 'outbox') await api.register(devOutboxRoutes, { db: db.kysely, jobs });
        if (isMovable(clock)) await api.register(devClockRoutes, { clock });
      }
    },
    { prefix: '/api' },
  );

  if (config.billing.sandbox && config.nodeEnv !== 'production') {
    await app.register(sandboxCheckoutRoutes, {
      prefix: '/paddle-sandbox',
      baseUrl: config.billing.environment,
      apiKey: config.billing.apiKey,
      clientToken: config.billing.clientToken,
    });
  }

  await registerSpa(app, config.spaDir);
  app.addHook('onReady', async () => {
    await bus.start();
    jobs.start();
  });
  // Jobs a request queued are looked for once its answer has gone out (server/modules/jobs/queue.ts, add).
  app.addHook('onResponse', async () => jobs.nudgeQueued());
  // Housekeeping, hourly in every instance (each statement is safe to run twice at once).
  const housekeeping = setInterval(() => {
    Promise.all([jobs.prune(), throttle.prune(), pruneTwoFactor(twoFactor)]).catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    await jobs.stop(JOBS_DRAIN_MS);
    await bus.close();
    await db.destroy();
  });
  return app;
}
