import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { webhookAckSchema } from '../../../contract/subscription.js';
import { receiveWebhook, type WebhookDeps } from './webhook-intake.js';

/** `POST /paddle/webhook`: Paddle's notifications, which keep subscriptions and payments in step. */
export const paddleWebhookRoutes: FastifyPluginAsyncZod<{ deps: WebhookDeps }> = async (app, { deps }) => {
  // The signature covers the bytes Paddle sent: this route keeps the body as the raw string.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
  app.post('/paddle/webhook', { schema: { response: { 200: webhookAckSchema } } }, async (request) =>
    receiveWebhook(deps, request.body as string, request.headers['paddle-signature'] as string | undefined),
  );
};
