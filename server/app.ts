import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVENT_STREAM_HEARTBEAT_MS } from '../contract/events.js';
import { createPaddle } from './billing/paddle.js';
import { SystemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { ModuleContext, PortalModule } from './context.js';
import type { Db } from './db/index.js';
import { adminUsersModule } from './modules/admin-users/index.js';
import { analyticsModule } from './modules/analytics/index.js';
import { AccessTokens, authModule, OfflineTokens, Sessions, Throttle } from './modules/auth/index.js';
import { billingModule, KeptMeBilling, RefundRunner } from './modules/billing/index.js';
import { couponsModule } from './modules/coupons/index.js';
import { devModule } from './modules/dev/index.js';
import { devicesModule, releaseSeatsAboveLimit } from './modules/devices/index.js';
import { EventBus, eventsModule, PostgresEventBus, StreamRegistry, type Invalidation } from './modules/events/index.js';
import { KeptEntitlements } from './modules/entitlements/index.js';
import { healthModule, Readiness } from './modules/health/index.js';
import { JobQueue, jobsModule } from './modules/jobs/index.js';
import { liteKeysModule } from './modules/lite-keys/index.js';
import { mailModule } from './modules/mail/index.js';
import { oauthModule } from './modules/oauth/index.js';
import { overviewModule } from './modules/overview/index.js';
import { privacyModule } from './modules/privacy/index.js';
import { releasesModule } from './modules/releases/index.js';
import { pruneTwoFactor, twoFactorDepsOf, twoFactorModule } from './modules/two-factor/index.js';
import { SignedInUsers, UsersRepo, usersModule } from './modules/users/index.js';
import { createGuards, requirePermissions } from './plugins/authentication.js';
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

/**
 * The modules under /api, each one plugin that registers its routes and its jobs (docs/architecture.md
 * has what each owns and whom it depends on). Order matters only for reading: Fastify's router does not
 * care which registers first.
 */
const MODULES: PortalModule[] = [
  healthModule,
  authModule,
  twoFactorModule,
  oauthModule,
  usersModule,
  privacyModule,
  overviewModule,
  billingModule,
  devicesModule,
  couponsModule,
  liteKeysModule,
  releasesModule,
  eventsModule,
  analyticsModule,
  adminUsersModule,
  jobsModule,
  mailModule,
  devModule,
];

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

/**
 * Which kept reads an invalidation reaches (server/modules/events/bus.ts says who sends each): the
 * signed-in users of the guard, `/users/me`'s billing facts, and the entitlements of the heartbeat and
 * the account home.
 */
function forgetOn(
  invalidation: Invalidation,
  kept: { signedIn: SignedInUsers; meBilling: KeptMeBilling; entitlements: KeptEntitlements },
): void {
  switch (invalidation.kind) {
    case 'sessions-ended':
      if (invalidation.sessionIds === 'all') kept.signedIn.forgetUser(invalidation.userId);
      else kept.signedIn.forgetSessions(invalidation.sessionIds);
      return;
    case 'roles-changed':
    case 'account-changed':
      kept.signedIn.forgetUser(invalidation.userId);
      return;
    case 'holdings-changed':
      kept.meBilling.forgetUser(invalidation.userId);
      kept.entitlements.forgetUser(invalidation.userId);
      return;
    case 'user-deleted':
      kept.signedIn.forgetUser(invalidation.userId);
      kept.meBilling.forgetUser(invalidation.userId);
      kept.entitlements.forgetUser(invalidation.userId);
      return;
    case 'releases-changed':
      kept.meBilling.forgetReleases();
      kept.entitlements.forgetReleases();
      return;
    case 'everything':
      kept.signedIn.forgetAll();
      kept.meBilling.forgetAll();
      kept.entitlements.forgetAll();
  }
}

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
  app.decorateRequest('viewedBy', null);
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

  // SQLite is one instance: its streams hear its events. On PostgreSQL every instance hears every instance's.
  const bus = db.dialect === 'postgres' && config.database.dialect === 'postgres' ? new PostgresEventBus(config.database.url, app.log) : new EventBus();
  // Collaborators, built once and shared through the modules' context.
  const users = new UsersRepo(db);
  const accessTokens = new AccessTokens(config.jwtSecret, clock);
  const offlineTokens = new OfflineTokens(db.kysely, clock);
  const sessions = new Sessions(db.kysely, clock, accessTokens, offlineTokens, config.appUrl);
  // What only writes change, kept by this instance while it hears every invalidation (issue 45; server/kept.ts).
  const keeping = { clock, listening: () => bus.connected };
  const signedIn = new SignedInUsers(users, keeping);
  const meBilling = new KeptMeBilling(db.kysely, keeping);
  const entitlements = new KeptEntitlements(db.kysely, keeping);
  bus.onInvalidation((invalidation) => forgetOn(invalidation, { signedIn, meBilling, entitlements }));
  // A sign-out is answered once its end has left for the other instances: they refuse the token soon after.
  sessions.announceEndsTo(async (userId, sessionIds) => {
    bus.announce({ kind: 'sessions-ended', userId, sessionIds });
    await bus.sent();
  });
  users.announceChangesTo((userId) => bus.announce({ kind: 'account-changed', userId }));
  const guards = createGuards({ accessTokens, signedIn, sessions, clock, staffTwoFactor: config.staffTwoFactor });
  requirePermissions(app, guards);
  await registerOpenApi(app, { guards, serverUrl: config.appUrl });
  registerGuessLimits(app, throttle);
  // After-the-answer work as durable jobs, run by this instance's worker (and every other instance's).
  const jobs = new JobQueue({ db: db.kysely, dialect: db.dialect, clock, log: app.log });
  app.decorate('jobs', jobs);
  app.decorate('bus', bus);
  const streams = new StreamRegistry(bus, config.maxEventStreams ?? 10_000);
  const readiness = new Readiness(db, { worker: () => jobs.isRunning, events: () => bus.connected });
  // Closing: the load balancer hears "not ready" at once, before streams end and the port closes.
  app.addHook('preClose', async () => readiness.markClosing());
  const metrics = await registerMetrics(
    app,
    config.metrics ?? {},
    { openStreams: () => streams.size, jobs: () => jobs.counts(), jobsFailedHere: () => jobs.failedTotal, pool: () => db.pool() },
  );
  const paddle = createPaddle(config.billing);
  const context: ModuleContext = {
    config,
    db,
    clock,
    wallClock: new SystemClock(),
    log: app.log,
    guards,
    throttle,
    jobs,
    bus,
    streams,
    readiness,
    metrics,
    paddle,
    paddleClient: {
      environment: config.billing.environment === 'production' ? 'production' : 'sandbox',
      clientToken: config.billing.clientToken,
      sandboxScript: config.billing.sandbox ? SANDBOX_SCRIPT_PATH : null,
    },
    users,
    accessTokens,
    offlineTokens,
    sessions,
    refunds: new RefundRunner({ db: db.kysely, paddle, clock, appUrl: config.appUrl, bus, jobs, users }),
    billingFacts: (userId, now) => meBilling.of(userId, now),
    entitlements,
    releaseSeatsAboveLimit,
    eventHeartbeatMs,
  };
  await app.register(
    async (api) => {
      registerApiNotFound(api);
      for (const module of MODULES) await api.register(module, context);
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
    Promise.all([jobs.prune(), throttle.prune(), pruneTwoFactor(twoFactorDepsOf(context))]).catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
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
