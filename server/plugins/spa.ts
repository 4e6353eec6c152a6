import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { hasSessionHint } from '../../contract/session-hint.js';
import { ROUTE_PRELOADS, type RoutePreloads } from '../../contract/route-preloads.js';
import { DEFAULT_LOCALE, splitLocale } from '../../contract/locale.js';
import { sendError } from './errors.js';

/** Whether a route pattern of the SPA's table ('admin/users/:id', 'checkout/:type/:tab/:priceId?') matches a path. */
function matches(pattern: string, segments: string[]): boolean {
  const parts = pattern === '' ? [] : pattern.split('/');
  const required = parts.filter((part) => !part.endsWith('?')).length;
  if (segments.length < required || segments.length > parts.length) return false;
  return segments.every((segment, index) => {
    const part = parts[index] as string;
    return part.startsWith(':') || part === segment;
  });
}

/**
 * index.html for one address, with `<link rel=modulepreload>` for its screen's chunks and its language's
 * texts, so the browser fetches them beside the entry instead of after it (scripts/route-preload-plugin.ts).
 * An address no route names gets the not-found screen's, as the SPA's router would show; a signed-in
 * screen's code is named only when the browser says it holds a session (contract/session-hint.ts).
 */
function pageWithPreloads(html: string, preloads: RoutePreloads, url: string, sessionHeld: boolean): string {
  // Fastify has already refused a malformed escape (400), so this decodes.
  const pathname = decodeURI(url.split('?')[0] ?? '/');
  // The address's locale as the app itself reads it (src/routing/locale.ts).
  const { locale, path: appPath } = splitLocale(pathname);
  const segments = appPath.split('/').filter(Boolean);
  const route =
    preloads.routes.find((entry) => entry.path !== '*' && matches(entry.path, segments)) ?? preloads.routes.find((entry) => entry.path === '*');
  // An address without a prefix shows the language kept in the tab (unknown here) or English.
  const language = locale ?? DEFAULT_LOCALE;
  let screenFiles: string[] = [];
  if (route && !route.signedIn) screenFiles = route.files;
  else if (route && sessionHeld) screenFiles = [preloads.accountTexts[language], ...route.files];
  const files = [preloads.texts[language], ...screenFiles].filter((file): file is string => Boolean(file));
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
  return html.replace('</head>', `${links}</head>`);
}

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
  const preloadsFile = path.join(spaDir, ROUTE_PRELOADS);
  // The build's list of each screen's chunks (scripts/route-preload-plugin.ts).
  const preloads = available && existsSync(preloadsFile) ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as RoutePreloads) : null;
  const html = preloads ? readFileSync(indexFile, 'utf8') : '';
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (available && wantsPage) {
      reply.header('cache-control', 'no-cache');
      if (!preloads) return reply.sendFile('index.html');
      return reply.type('text/html; charset=utf-8').send(pageWithPreloads(html, preloads, request.url, hasSessionHint(request.headers.cookie)));
    }
    return sendError(request, reply, 'NOT_FOUND', 404);
  });
}
