import type { FastifyRequest } from 'fastify';

/** Headers that carry credentials never reach the logs. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers.bearer',
];

/**
 * Some URLs carry secrets (verification and password-reset links, session tokens handed over in the
 * query). The logged URL keeps the route but masks those parts.
 */
const SECRET_PATH_SEGMENT = /(\/(?:validate|check-token|resendVerificationEmail|forget-password)\/)[^/?]+/g;
const SECRET_QUERY = /([?&](?:access-token|offline-token|token|code|state)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH_SEGMENT, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    };
  },
};
