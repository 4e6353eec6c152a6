import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { hasPermission } from '../../../contract/permissions.js';
import { ADMINS, type EventBus, type StreamEvent } from './bus.js';
import type { StreamRegistry } from './streams.js';

/** How soon a browser reconnects after the stream drops (the SPA adds its own backoff on top). */
const RETRY_MS = 3000;

/**
 * The last words of a stream when this instance shuts down: reconnect after one to four seconds (spread, so
 * the streams of a draining instance do not all land on the others at once).
 */
function shutdownFarewell(): string {
  return `retry: ${1000 + Math.floor(Math.random() * 3000)}\n: shutting down\n\n`;
}

/**
 * `GET /api/events`: a server-sent-event stream of the signed-in user's changes (subscription, licence,
 * transaction, seat), with a comment line every heartbeat so proxies keep it open and the client can
 * tell a dead connection from a quiet one.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ bus: EventBus; streams: StreamRegistry; guards: Guards; heartbeatMs: number }> = async (
  app,
  { bus, streams, guards, heartbeatMs },
) => {
  const open = new Set<(farewell?: string) => void>();
  // Open streams would hold the server open: they end before it closes, telling the browser when to come back.
  app.addHook('preClose', async () => {
    for (const end of open) end(shutdownFarewell());
  });

  // Open while a staff member enrols a second factor (issue 44): the tab's other changes keep arriving.
  app.get('/events', { onRequest: guards.user, config: { duringTwoFactorEnrolment: true } }, async (request, reply) => {
    const user = currentUser(request);
    const session = currentSession(request);
    let unsubscribers: (() => void)[] = [];
    let adminSubscription: (() => void) | null = null;
    let ended = false;
    // Started once the stream is open (a refused stream must leave no timer behind).
    const timer: { heartbeat?: ReturnType<typeof setInterval> } = {};
    const send = (event: StreamEvent) => reply.raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    // Issue 47: a read-only view of a customer's account hears the customer's events, never staff's.
    const view = request.viewedBy !== null;
    const setAdmin = (admin: boolean) => {
      if (admin && !view && !adminSubscription) adminSubscription = bus.subscribe(ADMINS, send);
      if (!admin && adminSubscription) {
        adminSubscription();
        adminSubscription = null;
      }
    };
    const end = (farewell?: string) => {
      if (ended) return;
      ended = true;
      if (farewell && !reply.raw.writableEnded) reply.raw.write(farewell);
      clearInterval(timer.heartbeat);
      unsubscribers.forEach((stop) => stop());
      setAdmin(false);
      open.delete(end);
      forget();
      reply.raw.end();
    };
    // Refused (503) before anything is written when the process holds its maximum of streams.
    const forget = streams.open({ userId: user.id, sessionId: session.id, end, setAdmin });
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // The stream is the connection's last response: when it ends, so does the socket.
      connection: 'close',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
    unsubscribers = [bus.subscribe(user.id, send)];
    setAdmin(hasPermission(user.roles, 'analytics.read'));
    timer.heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
    open.add(end);
    raw.once('close', end);
  });
};
