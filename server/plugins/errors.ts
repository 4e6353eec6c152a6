import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { MessageKey } from '../../contract/errors.js';
import { AppError } from '../errors.js';
import { errorMessage, languageFrom } from '../i18n.js';

interface Classified {
  messageKey: MessageKey;
  statusCode: number;
}

/** Maps every kind of failure to one messageKey and status; anything unexpected is a 500 DEFAULT. */
function classify(error: FastifyError | Error): Classified {
  if (error instanceof AppError) return { messageKey: error.messageKey, statusCode: error.statusCode };
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error) || fastifyError.validation) {
    return { messageKey: 'VALIDATION_FAILED', statusCode: 400 };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { messageKey: 'INVALID_JSON', statusCode: 400 };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { messageKey: 'UNSUPPORTED_MEDIA_TYPE', statusCode: 415 };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { messageKey: 'PAYLOAD_TOO_LARGE', statusCode: 413 };
  }
  if (fastifyError.statusCode === 429) return { messageKey: 'TOO_MANY_REQUESTS', statusCode: 429 };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { messageKey: 'INVALID_JSON', statusCode: 400 };
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { messageKey: 'VALIDATION_FAILED', statusCode: fastifyError.statusCode };
  }
  return { messageKey: 'DEFAULT', statusCode: 500 };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, messageKey: MessageKey, statusCode: number) {
  const message = errorMessage(messageKey, languageFrom(request.headers['accept-language']));
  return reply.code(statusCode).type('application/json; charset=utf-8').send({ messageKey, message });
}

/** One error shape for the whole API: `{ messageKey, message }`, never a stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const { messageKey, statusCode } = classify(error);
    if (error instanceof AppError && error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ messageKey, statusCode }, 'request refused');
    return sendError(request, reply, messageKey, statusCode);
  });
}

/** Unknown API paths: a 404 in the usual shape, rate limited so the API cannot be crawled for free. */
export function registerApiNotFound(api: FastifyInstance): void {
  api.setNotFoundHandler(
    { preHandler: api.rateLimit({ max: 60, timeWindow: '1 minute' }) },
    (request, reply) => sendError(request, reply, 'NOT_FOUND', 404),
  );
}
