import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { isAdmin } from '../../../contract/users.js';
import { ADMINS, type EventBus, type StreamEvent } from './bus.js';

/** How soon a browser reconnects after the stream drops (the SPA adds its own backoff on top). */
const RETRY_MS = 3000;

/**
 * `GET /api/events`: a server-sent-event stream of the signed-in user's changes (subscription, licence,
 * transaction, seat), with a comment line every heartbeat so proxies keep it open and the client can
 * tell a dead connection from a quiet one.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ bus: EventBus; guards: Guards; heartbeatMs: number }> = async (app, { bus, guards, heartbeatMs }) => {
  const open = new Set<() => void>();
  // Open streams would hold the server open: they end before it closes.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get('/events', { onRequest: guards.user }, async (request, reply) => {
    const user = currentUser(request);
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
    const send = (event: StreamEvent) => raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    const unsubscribers = [bus.subscribe(user.id, send)];
    if (isAdmin(user.roles)) unsubscribers.push(bus.subscribe(ADMINS, send));
    const unsubscribe = () => unsubscribers.forEach((stop) => stop());
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      raw.end();
    };
    open.add(end);
    raw.once('close', end);
  });
};
