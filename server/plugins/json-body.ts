import type { FastifyInstance } from 'fastify';

/**
 * The API speaks JSON only; anything else is a 415 instead of a string reaching a JSON schema. The SPA
 * sends Content-Type application/json on every request (spec section 7), also on a POST without a body
 * (cancel, continue): an empty JSON body is no body, not a 400. Anything else goes through Fastify's own
 * parser, prototype-poisoning checks included.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}
