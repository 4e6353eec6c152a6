import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewSchema } from '../../../contract/overview.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { Catalogue } from '../billing/index.js';
import { overviewOf, type OverviewDeps } from './overview.js';

/** `GET /users/me/overview`: the account home (issue 20). Only ever the caller's own data. */
export const overviewRoutes: FastifyPluginAsyncZod<{ deps: OverviewDeps; guards: Guards }> = async (app, { deps, guards }) => {
  const catalogue = new Catalogue(deps);
  app.get('/users/me/overview', { onRequest: guards.user, schema: { response: { 200: overviewSchema } } }, async (request) =>
    overviewOf(deps, catalogue, currentUser(request)),
  );
};
