import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

/**
 * Serves the built single-page app with history fallback: any GET that is not an API call and not a file
 * gets index.html, and the SPA's router decides (including its own not-found page).
 * Hashed assets are cached for a year; index.html is always revalidated so a deploy shows at once.
 */
export async function registerSpa(app: FastifyInstance, spaDir: string): Promise<void> {
  const indexFile = path.join(spaDir, 'index.html');
  const available = existsSync(indexFile);
  if (available) {
    await app.register(fastifyStatic, {
      root: spaDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of every text asset (scripts/bundle-report-plugin.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (available && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 'NOT_FOUND', 404);
  });
}
