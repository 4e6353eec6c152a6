import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subscriptionSchema, webhookAckSchema } from '../../../contract/subscription.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { receiveWebhook, subscriptionOf, type WebhookDeps } from './subscriptions.js';

/** Paddle's webhooks and the subscription they keep in step (spec section 7: `GET /subscription/user`). */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ deps: WebhookDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/subscription/user', { onRequest: guards.user, schema: { response: { 200: subscriptionSchema.nullable() } } }, async (request) =>
    subscriptionOf(deps.db, currentUser(request).id),
  );

  await app.register(async (webhooks) => {
    // The signature covers the bytes Paddle sent: this route keeps the body as the raw string.
    webhooks.removeContentTypeParser('application/json');
    webhooks.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
    webhooks.post('/paddle/webhook', { schema: { response: { 200: webhookAckSchema } } }, async (request) =>
      receiveWebhook(deps, request.body as string, request.headers['paddle-signature'] as string | undefined),
    );
  });
};
