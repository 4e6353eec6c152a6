import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A request's id for the logs and the `x-request-id` answer header: the caller's (a load balancer's)
 * when it is safe to log and echo, otherwise a new one. Fastify's own header reading is off, so this
 * is the only place that decides.
 */
export const requestIdOptions: Pick<FastifyServerOptions, 'requestIdHeader' | 'genReqId'> = {
  requestIdHeader: false,
  genReqId: (request) => {
    const incoming = request.headers['x-request-id'];
    return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  },
};
