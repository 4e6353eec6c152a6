import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOpenApi } from '../../server/plugins/openapi.js';
import { OPERATIONS, TAGS } from '../../server/plugins/openapi-operations.js';
import { signIn, someClientAddress, startTestServer, type TestServer } from '../fixtures/server.js';

/**
 * Issue 19, item 5: the OpenAPI document at /api/openapi.json and its reference page at /api/docs. The
 * document is generated from the routes, so what can go wrong is a route left out of it (hidden, or
 * registered where @fastify/swagger does not see it), an operation without its errors, or the list of
 * summaries and service failures (server/plugins/openapi-operations.ts) drifting from the routes. Issue 45:
 * every operation has its operationId (a generated client's method name) and its area's tag; Redocly's lint of
 * the same document runs in `npm run lint` (scripts/lint-openapi.ts), and the tests below stand in for the rules
 * redocly.yaml turns off.
 */

interface OpenApiParameter {
  in: string;
  name: string;
  schema?: { pattern?: string; enum?: unknown[] };
}
interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: object;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; license?: { name: string; url?: string } };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; securitySchemes: Record<string, { type: string; scheme?: string; bearerFormat?: string }> };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Every method and path the app answers, read from Fastify's own route tree (`printRoutes`), which
 * knows nothing of the document: each line is a node, indented four characters a level, whose path
 * continues its parent's. HEAD routes are Fastify's automatic twins of the GET ones.
 */
function registeredRoutes(server: TestServer): { method: string; url: string }[] {
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = (depth > 0 ? stack[depth - 1] : '') + (match[2] ?? '');
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** What the API is: everything under /api but the development helpers and the reference itself. */
function belongsToApi(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/dev/') && !url.startsWith('/api/docs') && url !== '/api/openapi.json';
}

/** Fastify's `/users/:id` is OpenAPI's `/users/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operations(document: OpenApiDocument): { method: string; path: string; operation: OpenApiOperation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as OpenApiOperation })),
  );
}

/**
 * The verbs an operationId may start with: what a generated client's method does (`listUsers`,
 * `cancelSubscription`), never a noun (`userList`) or a path (`usersMeGet`). A new kind of action adds its verb.
 */
const VERBS = new Set([
  'activate', 'apply', 'approve', 'cancel', 'change', 'check', 'claim', 'confirm', 'connect', 'continue', 'create', 'delete',
  'disable', 'disconnect', 'end', 'export', 'finish', 'get', 'import', 'list', 'pause', 'preview', 'receive', 'record', 'redeem',
  'refresh', 'regenerate', 'register', 'release', 'remove', 'rename', 'report', 'request', 'resend', 'reset', 'retry',
  'resume', 'return', 'send', 'sign', 'start', 'stream', 'update', 'verify',
]);

/** camelCase: a lowercase word, then words each starting with a capital (`getTwoFactorStatus`, `signInAsAdmin`). */
const CAMEL_CASE = /^[a-z]+(?:[A-Z][a-z0-9]*)*$/;

/**
 * Pairs of paths that their templates alone do not tell apart, as Redocly's `no-ambiguous-paths` finds them
 * (turned off in redocly.yaml): as many segments and as many parameters, each segment the same word or a
 * parameter on one side. `/api/users/{id}/two-factor` and `/api/users/validate/{token}` are such a pair.
 */
function templateTwins(paths: string[]): [string, string][] {
  const parts = (path: string) => path.split('/');
  const isParameter = (segment: string) => /^\{.+\}$/.test(segment);
  const twins: [string, string][] = [];
  paths.forEach((first, index) => {
    for (const second of paths.slice(index + 1)) {
      const [a, b] = [parts(first), parts(second)];
      if (a.length !== b.length || a.filter(isParameter).length !== b.filter(isParameter).length) continue;
      if (a.every((segment, at) => segment === b[at] || isParameter(segment) || isParameter(b[at] ?? ''))) twins.push([first, second]);
    }
  });
  return twins;
}

describe('OpenAPI document', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const answer = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    document = answer.json<OpenApiDocument>();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is OpenAPI 3.1 with the error body as a component and bearer security schemes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(document.components.schemas.ApiError?.properties ?? {}).sort()).toEqual(['message', 'messageKey']);
    expect(document.components.securitySchemes.accessToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.components.securitySchemes.deviceToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { method, path, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses ?? {});
      expect(statuses.some((status) => /^2\d\d$/.test(status)), `${where} has a success response`).toBe(true);
      expect(operation.summary, `${where} has a summary`).toBeTruthy();
      expect(operation.tags?.length, `${where} has a tag`).toBeGreaterThan(0);
      // Readiness's 503 is its own answer ({ status, reasons }), declared by the route.
      for (const status of statuses.filter((status) => Number(status) >= 400 && where !== 'GET /api/health/ready')) {
        expect(operation.responses?.[status]?.content?.['application/json']?.schema?.$ref, `${where} ${status} is the error body`).toBe('#/components/schemas/ApiError');
      }
    }
  });

  it('names every operation with a unique camelCase verb phrase, from its entry in openapi-operations.ts', () => {
    const named = operations(document).map(({ method, path, operation }) => ({ where: `${method.toUpperCase()} ${path}`, operationId: operation.operationId ?? '' }));
    expect(named.filter(({ operationId }) => !operationId).map(({ where }) => where), 'operations without an operationId').toEqual([]);
    for (const { where, operationId } of named) {
      expect(operationId, `${where}: camelCase`).toMatch(CAMEL_CASE);
      expect(VERBS.has(operationId.split(/(?=[A-Z])/)[0] ?? ''), `${where}: ${operationId} starts with a verb of VERBS`).toBe(true);
    }
    const seen = new Map<string, string>();
    const duplicates = named.flatMap(({ where, operationId }) => {
      const other = seen.get(operationId);
      seen.set(operationId, where);
      return other ? [`${operationId}: ${other} and ${where}`] : [];
    });
    expect(duplicates, 'operationIds used twice').toEqual([]);
    // The list itself, so an entry whose route is gone cannot hold a name a live one needs.
    const entries = Object.values(OPERATIONS).map(({ operationId }) => operationId);
    expect(new Set(entries).size).toBe(entries.length);
    // A few pinned: renaming one renames a generated client's method, a change made on purpose or not at all.
    expect(document.paths['/api/auth/login']?.post?.operationId).toBe('signIn');
    expect(document.paths['/api/users/me']?.get?.operationId).toBe('getCurrentUser');
    expect(document.paths['/api/desktop/heartbeat']?.post?.operationId).toBe('sendHeartbeat');
  });

  it('tags every operation with its area, one of the tags the document describes', () => {
    const known = document.tags.map(({ name }) => name);
    expect(known).toEqual(TAGS.map(({ name }) => name));
    for (const { method, path, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      const [area, ...more] = operation.tags ?? [];
      expect(area, `${where} has an area`).toBeDefined();
      expect(area, `${where}: its area is not Admin (that is its second tag)`).not.toBe('Admin');
      expect(known, `${where}: ${area} is a known tag`).toContain(area);
      // The one other tag is Admin, on what only administrators may call (the caller test below checks a user is refused those).
      expect(more.filter((tag) => tag !== 'Admin'), where).toEqual([]);
    }
  });

  it('is licensed (the Terms of Use) and names the server it is served from', () => {
    expect(document.info.license).toEqual({ name: 'Proprietary', url: `${server.config.appUrl}/terms` });
    expect((document as unknown as { servers: { url: string }[] }).servers).toEqual([{ url: server.config.appUrl }]);
  });

  it('lists a 4xx for every operation a caller can get wrong: only those that take nothing list none', () => {
    // In place of Redocly's operation-4xx-response (off in redocly.yaml): an operation without a 4xx takes no
    // parameter, no body and no credentials (a limit would list 429); no 4xx is invented for it.
    const without4xx = operations(document).filter(({ operation }) => !Object.keys(operation.responses ?? {}).some((status) => status.startsWith('4')));
    for (const { method, path, operation } of without4xx) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.parameters ?? [], where).toEqual([]);
      expect(operation.requestBody, where).toBeUndefined();
      expect(operation.security, where).toEqual([]);
    }
    expect(without4xx.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(
      ['GET /api/health', 'GET /api/health/ready', 'GET /api/paddle/config', 'GET /api/releases/latest'].sort(),
    );
  });

  it('tells apart by their parameters the paths whose templates overlap', () => {
    // In place of Redocly's no-ambiguous-paths (off in redocly.yaml, where the spec's paths cause it): where one
    // path has a word and its twin a parameter, that parameter's pattern or enum refuses the word (a uuid is
    // never `validate` or `me`), so each URL belongs to one path.
    expect(templateTwins(['/a/{x}/b', '/a/c/{y}', '/a/c/d', '/a/{x}/{y}'])).toEqual([['/a/{x}/b', '/a/c/{y}']]);
    const refuses = (path: string, name: string, word: string) =>
      Object.values(document.paths[path] ?? {}).every((operation: OpenApiOperation) => {
        const schema = operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema;
        const byEnum = schema?.enum !== undefined && !schema.enum.includes(word);
        const byPattern = schema?.pattern !== undefined && !new RegExp(schema.pattern).test(word);
        return byEnum || byPattern;
      });
    const twins = templateTwins(Object.keys(document.paths));
    const confusable = twins.filter(([first, second]) => {
      const [a, b] = [first.split('/'), second.split('/')];
      return !a.some((segment, at) => {
        const other = b[at] ?? '';
        const parameter = (text: string) => /^\{(.+)\}$/.exec(text)?.[1];
        const [inFirst, inSecond] = [parameter(segment), parameter(other)];
        if (inFirst && !inSecond) return refuses(first, inFirst, other);
        if (inSecond && !inFirst) return refuses(second, inSecond, segment);
        return false;
      });
    });
    expect(confusable, 'paths only their templates could tell apart').toEqual([]);
  });

  it('refuses to start with an API route that has no entry in openapi-operations.ts', async () => {
    // There is no untagged, unnamed fallback: the route is a mistake found at once, not a hole in the document.
    const noop = async () => {};
    const bare = Fastify();
    await registerOpenApi(bare, { guards: { user: noop, staff: noop, optionalUser: noop, signingOut: noop }, serverUrl: 'http://localhost' });
    bare.get('/api/dev/anything', async () => ({}));
    await expect(async () => {
      bare.get('/api/not-listed', async () => ({}));
      await bare.ready();
    }).rejects.toThrow('GET /api/not-listed has no entry in server/plugins/openapi-operations.ts');
    await bare.close();
  });

  it('has every route the app registered under /api, with its method, and nothing else', () => {
    const registered = registeredRoutes(server);
    // The reading of the route tree works: known routes, the hidden ones included, are found.
    expect(registered).toContainEqual({ method: 'POST', url: '/api/desktop/activate' });
    expect(registered).toContainEqual({ method: 'DELETE', url: '/api/users/me/sessions/:id' });
    expect(registered).toContainEqual({ method: 'GET', url: '/api/dev/outbox' });

    const documented = new Set(operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const api = registered.filter(({ url }) => belongsToApi(url)).map(({ method, url }) => `${method} ${openApiPath(url)}`);
    expect(api.length).toBeGreaterThan(60);
    expect(api.filter((route) => !documented.has(route)), 'registered routes missing from the document').toEqual([]);
    expect([...documented].filter((route) => !api.includes(route)), 'documented operations with no route').toEqual([]);
    // Development helpers, the stand-in checkout and the reference itself are not the API.
    expect(Object.keys(document.paths).filter((path) => !belongsToApi(path))).toEqual([]);
  });

  it('has an entry in server/plugins/openapi-operations.ts for every route, and no entry without a route', () => {
    const api = registeredRoutes(server)
      .filter(({ url }) => belongsToApi(url))
      .map(({ method, url }) => `${method} ${url}`);
    expect(api.filter((route) => !(route in OPERATIONS)), 'routes without an entry').toEqual([]);
    expect(Object.keys(OPERATIONS).filter((key) => !api.includes(key)), 'entries without a route').toEqual([]);
  });

  it('lists every status a caller without a token, or a signed-in non-admin, gets', async () => {
    // Each operation called as it is most often got wrong: no Authorization header, no body, made-up
    // path parameters. The guards answer before validation, so a guarded route must say 401.
    const user = await server.createUser();
    const { access_token: token } = await signIn(server, user.email, user.password);
    const undocumented: string[] = [];
    let guarded = 0;
    for (const { method, path, operation } of operations(document)) {
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const call = (authorization?: string) =>
        server.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          remoteAddress: someClientAddress(),
        });
      const anonymous = await call();
      if (!(String(anonymous.statusCode) in (operation.responses ?? {}))) undocumented.push(`${method.toUpperCase()} ${path} answered ${anonymous.statusCode} ${anonymous.body.slice(0, 80)}`);
      if (anonymous.statusCode === 401) guarded += 1;
      if (operation.tags?.includes('Admin')) {
        const asUser = await call(`Bearer ${token}`);
        expect(asUser.statusCode, `${method.toUpperCase()} ${path} as a user`).toBe(403);
        expect(operation.responses?.['403'], `${method.toUpperCase()} ${path} lists 403`).toBeDefined();
      }
    }
    expect(undocumented).toEqual([]);
    expect(guarded).toBeGreaterThan(40);
  });

  it('lists every status a signed-in user gets from the user routes called without a body', async () => {
    // The services' own refusals (no subscription, no payment provider here, nothing found) must be
    // among the documented answers too. Signing out would end the session the other calls use.
    const user = await server.createUser();
    const { access_token: token } = await signIn(server, user.email, user.password);
    const undocumented: string[] = [];
    for (const { method, path, operation } of operations(document)) {
      if (operation.tags?.includes('Admin') || !operation.security?.some((requirement) => 'accessToken' in requirement)) continue;
      // The event stream never ends by itself (tests/api has its own tests of it).
      if (path === '/api/auth/logout' || path === '/api/events') continue;
      const answer = await server.app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        remoteAddress: someClientAddress(),
      });
      if (answer.statusCode === 401) undocumented.push(`${method.toUpperCase()} ${path} refused the token`);
      else if (!(String(answer.statusCode) in (operation.responses ?? {}))) undocumented.push(`${method.toUpperCase()} ${path} answered ${answer.statusCode} ${answer.body.slice(0, 80)}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('documents the desktop API well enough to write a client from it', () => {
    const desktop = operations(document).filter(({ path }) => path.startsWith('/api/desktop/'));
    expect(desktop.map(({ path }) => path).sort()).toEqual(
      ['/api/desktop/activate', '/api/desktop/exports', '/api/desktop/heartbeat', '/api/desktop/lite-keys/claim', '/api/desktop/reports', '/api/desktop/sessions'].sort(),
    );
    for (const { path, operation } of desktop) {
      expect(operation.tags, path).toContain('Devices');
      expect(operation.description?.length ?? 0, `${path} has a description`).toBeGreaterThan(80);
      // Activation takes the user's access token; everything after it the device token.
      const scheme = path === '/api/desktop/activate' ? 'accessToken' : 'deviceToken';
      expect(operation.security, path).toEqual([{ [scheme]: [] }]);
      expect(operation.responses?.['401']?.description, path).toContain(path === '/api/desktop/activate' ? 'UNAUTHORIZED' : 'DEVICE_TOKEN_INVALID');
    }
    const activate = document.paths['/api/desktop/activate']?.post;
    expect(activate?.responses?.['409']?.description).toContain('SEAT_LIMIT_REACHED');
    expect(activate?.responses?.['409']?.description).toContain('DEVICE_ALREADY_ATTACHED');
    expect(activate?.responses?.['429']).toBeDefined();
    const tag = (document as unknown as { tags: { name: string; description: string }[] }).tags.find(({ name }) => name === 'Devices');
    expect(tag?.description).toContain('device token');
  });

  it('serves the reference page from the package, under a policy that lets it run', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('https:');
    // Every script and style the page names is served here (no CDN).
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((found) => found[1] ?? '');
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset.startsWith('http'), asset).toBe(false);
      const answer = await server.app.inject({ method: 'GET', url: new URL(asset, 'http://localhost/api/docs').pathname });
      expect(answer.statusCode, asset).toBe(200);
    }
    // What the package does not have is the API's usual 404, not the single-page app.
    const missing = await server.app.inject({ method: 'GET', url: '/api/docs/static/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ messageKey: 'NOT_FOUND' });
    // The JSON API keeps its own policy.
    const json = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(json.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
