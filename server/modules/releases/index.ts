import type { PortalModule } from '../../context.js';
import { releaseRoutes } from './routes.js';

/** The desktop application's builds: the newest per platform, the seed, admins adding more, downloads. */
export const releasesModule: PortalModule = async (app, context) => {
  await app.register(releaseRoutes, { deps: { db: context.db.kysely, clock: context.clock, bus: context.bus }, guards: context.guards });
};

export { latestReleases, seedReleases, SEED_RELEASES } from './service.js';
export { buildOfVersion, buildsOfRelease, currentRelease, releaseLineAt } from './builds-repo.js';
export { downloadsOf } from './account-data-repo.js';
