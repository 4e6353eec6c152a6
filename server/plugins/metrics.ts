import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { digest } from '../digest.js';
import { AppError } from '../errors.js';
import { bearerToken } from './authentication.js';

/** Figures read from the running app when Prometheus scrapes. */
export interface MetricSources {
  /** Event streams this process holds open. */
  openStreams(): number;
  /** Jobs in the shared queue by state (all instances'). */
  jobs(): Promise<Record<'pending' | 'running' | 'failed', number>>;
  /** Jobs this instance saw fail for good since it started. */
  jobsFailedHere(): number;
  /** The database pool (PostgreSQL); null for SQLite's single connection. */
  pool(): { total: number; idle: number; waiting: number } | null;
}

export interface MetricsConfig {
  /** `METRICS_TOKEN`: `/metrics` on the app's own port answers a bearer of this token. */
  token?: string;
  /** `METRICS_PORT`: `/metrics` on a port of its own (for a network only the scraper reaches), no token. */
  port?: number;
  /**
   * `METRICS_HOST`: the address that port listens on, 127.0.0.1 unless set (issue 44: it answers without
   * a token, so it never follows `HOST`, which is every address by default).
   */
  host?: string;
}

/** Where the metrics port listens unless `METRICS_HOST` says otherwise: this machine only. */
const DEFAULT_METRICS_HOST = '127.0.0.1';

/** Compares in constant time (both sides digested to one length first). */
function isToken(presented: string, token: string): boolean {
  return timingSafeEqual(Buffer.from(digest(presented)), Buffer.from(digest(token)));
}

/** What the app reports to the metrics as it happens (a no-op when metrics are off). */
export interface MetricRecorder {
  /** A Paddle webhook arrived this long after Paddle says its event occurred. */
  webhookLag(seconds: number): void;
}

function buildRegistry(sources: MetricSources): { registry: Registry; requestSeconds: Histogram<'method' | 'route' | 'status_code'>; webhookLag: Histogram } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by route pattern, method and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'portal_event_streams_open',
    help: 'Server-sent event streams this instance holds open',
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: 'portal_jobs',
    help: 'Jobs in the shared queue by state (pending includes retries waiting for their time; failed is kept for an admin)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await sources.jobs();
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  new Counter({
    name: 'portal_jobs_failed_total',
    help: 'Jobs this instance gave up on after their last try',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.jobsFailedHere());
    },
  });
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, and requests waiting for one)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources.pool();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  const webhookLag = new Histogram({
    name: 'portal_webhook_lag_seconds',
    help: "Time from a Paddle event's occurred_at to its webhook's arrival here (first delivery and retries)",
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
    registers: [registry],
  });
  return { registry, requestSeconds, webhookLag };
}

/**
 * Prometheus metrics (prom-client): request durations by route pattern and status, the database pool, open
 * event streams, the job queue, and Node's own figures (event loop lag, heap, CPU, handles). Exposed only
 * when asked for: with `METRICS_TOKEN` at `/metrics` for a bearer of the token, with `METRICS_PORT` on a
 * port of its own; with neither, nothing is collected.
 */
export async function registerMetrics(app: FastifyInstance, config: MetricsConfig, sources: MetricSources): Promise<MetricRecorder> {
  if (config.token === undefined && config.port === undefined) return { webhookLag: () => undefined };
  const { registry, requestSeconds, webhookLag } = buildRegistry(sources);

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (`/api/users/:id`), never the raw path: one series per route, not per user.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requestSeconds.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const { token } = config;
  if (token !== undefined) {
    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      if (!isToken(bearerToken(request), token)) throw new AppError('UNAUTHORIZED', 401);
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }

  if (config.port !== undefined) {
    const server: Server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics failed');
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host ?? DEFAULT_METRICS_HOST, () => resolve());
    });
    const { port, address } = server.address() as AddressInfo;
    app.log.info({ port, address }, 'metrics listening');
    app.decorate('metricsPort', port);
    app.decorate('metricsAddress', address);
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
  return { webhookLag: (seconds) => webhookLag.observe(Math.max(0, seconds)) };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The port `/metrics` listens on with `METRICS_PORT` (0 picks a free one: tests read it here). */
    metricsPort?: number;
    /** The address that port is bound to (`METRICS_HOST`). */
    metricsAddress?: string;
  }
}
