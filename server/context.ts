import type { Paddle } from '@paddle/paddle-node-sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { AccessTokens, OfflineTokens, Sessions, Throttle } from './modules/auth/index.js';
import type { RefundRunner, ReleaseSeatsAboveLimit } from './modules/billing/index.js';
import type { KeptEntitlements } from './modules/entitlements/index.js';
import type { EventBus, StreamRegistry } from './modules/events/index.js';
import type { Readiness } from './modules/health/index.js';
import type { JobQueue } from './modules/jobs/index.js';
import type { BillingFacts, UsersRepo } from './modules/users/index.js';
import type { Guards } from './plugins/authentication.js';
import type { MetricRecorder } from './plugins/metrics.js';

/** What the SPA's Paddle.js is set up with (`GET /api/paddle/config`). */
export interface PaddleClientConfig {
  environment: 'production' | 'sandbox';
  clientToken: string;
  /** The offline stand-in's Paddle.js, loaded before `initializePaddle` when it runs. */
  sandboxScript: string | null;
}

/**
 * What every module is built with: the infrastructure server/app.ts creates once (the database, the
 * clock, the job queue, the event bus, the Paddle client...) and the few collaborators several modules
 * share (the users repository, sessions, the refund runner). A module's plugin takes what it needs from
 * here and builds its own services; other modules reach those only through the module's index.
 */
export interface ModuleContext {
  config: Config;
  db: Db;
  clock: Clock;
  /** The machine's time, for what must not move with the development clock (webhook signatures). */
  wallClock: Clock;
  log: FastifyBaseLogger;
  guards: Guards;
  throttle: Throttle;
  jobs: JobQueue;
  bus: EventBus;
  streams: StreamRegistry;
  readiness: Readiness;
  metrics: MetricRecorder;
  /** Null only in tests that run without any Paddle (no key and no stand-in). */
  paddle: Paddle | null;
  paddleClient: PaddleClientConfig;
  users: UsersRepo;
  accessTokens: AccessTokens;
  offlineTokens: OfflineTokens;
  sessions: Sessions;
  refunds: RefundRunner;
  /** Billing's facts for `/users/me` (kept by billing), handed to the users module (which does not import billing). */
  billingFacts: BillingFacts;
  /** The entitlements the desktop's heartbeat and the account home answer, kept until a write changes them (issue 45). */
  entitlements: KeptEntitlements;
  /** Devices' release of the seats beyond a user's limit, handed to billing for a returned licence (billing does not import devices). */
  releaseSeatsAboveLimit: ReleaseSeatsAboveLimit;
  /** The event stream's heartbeat (spec section 9: 45000 ms). */
  eventHeartbeatMs: number;
}

/**
 * A module as server/app.ts registers it: one plugin under /api that registers the module's routes and
 * its job handlers. Every module's index.ts exports one.
 */
export type PortalModule = FastifyPluginAsyncZod<ModuleContext>;
