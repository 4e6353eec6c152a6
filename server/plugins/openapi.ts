import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, type MessageKey } from '../../contract/errors.js';
import { rolesWith, type Permission } from '../../contract/permissions.js';
import { errorMessage } from '../i18n.js';
import { isWrite, type Guards } from './authentication.js';
import { OPERATIONS, TAGS, type Operation, type OperationKey } from './openapi-operations.js';

/** Where the document and its reference page are served (README.md, "API reference"). */
const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
const OPENAPI_PAGE_PATH = '/api/docs';

/** The one error body of the API (server/plugins/errors.ts), a component every error response points at. */
const ERROR_COMPONENT = 'ApiError';

/**
 * Only the API is documented. Everything else the app registers (the SPA's files, /metrics, the Paddle
 * stand-in under /paddle-sandbox, the reference page itself) is not part of it, and the development
 * helpers under /api/dev exist only outside production, so a document that listed them would describe
 * an API production does not have.
 */
function isDocumented(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/dev/') && !url.startsWith(`${OPENAPI_PAGE_PATH}/`) && url !== OPENAPI_PAGE_PATH && url !== OPENAPI_DOCUMENT_PATH;
}

/** How a route is authenticated, read from the guard it runs (hook identity, not a flag that could drift). */
type Access = 'public' | 'user' | 'staff' | 'optional-user' | 'signing-out' | 'device';

function hooksOf(route: RouteOptions): unknown[] {
  const hooks = route.onRequest;
  if (!hooks) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function accessOf(route: RouteOptions, guards: Guards, operation: Operation): Access {
  const hooks = hooksOf(route);
  if (hooks.includes(guards.staff)) return 'staff';
  if (hooks.includes(guards.user)) return 'user';
  if (hooks.includes(guards.optionalUser)) return 'optional-user';
  if (hooks.includes(guards.signingOut)) return 'signing-out';
  // The device token is checked by the handler (server/modules/devices/routes.ts), not by a guard.
  return operation.deviceToken ? 'device' : 'public';
}

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  user: [{ accessToken: [] }],
  staff: [{ accessToken: [] }],
  // Both: without the header the caller is a visitor (an empty requirement means "none needed").
  'optional-user': [{}, { accessToken: [] }],
  'signing-out': [{}, { accessToken: [] }],
  device: [{ deviceToken: [] }],
};

type Failures = Map<number, Set<MessageKey>>;

function add(failures: Failures, status: number, ...keys: MessageKey[]): void {
  const known = failures.get(status) ?? new Set<MessageKey>();
  for (const key of keys) known.add(key);
  failures.set(status, known);
}

/**
 * The failures a route can answer: those that follow from how it is declared (its schemas, guard and
 * limits), found here so they cannot be forgotten, and those its service decides, listed per route in
 * ./openapi-operations.ts.
 */
function failuresOf(route: RouteOptions, access: Access, operation: Operation, method: string): Failures {
  const failures: Failures = new Map();
  const schema = route.schema ?? {};
  if (schema.body || schema.querystring || schema.params) add(failures, 400, 'VALIDATION_FAILED');
  if (schema.body) {
    add(failures, 400, 'INVALID_JSON');
    add(failures, 415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (access === 'user' || access === 'staff' || access === 'optional-user') add(failures, 401, 'UNAUTHORIZED', 'SESSION_EXPIRED');
  if (access === 'device') add(failures, 401, 'DEVICE_TOKEN_INVALID');
  if (access === 'staff') add(failures, 403, 'FORBIDDEN');
  // Issue 47: a read-only view of a customer's account changes nothing.
  if ((access === 'user' || access === 'optional-user') && isWrite(method, route.config)) add(failures, 403, 'READ_ONLY_VIEW');
  // Issue 44: a staff member without a second factor (STAFF_TWO_FACTOR=required) reaches only the routes marked open to them.
  if ((access === 'user' || access === 'staff' || access === 'optional-user') && route.config?.duringTwoFactorEnrolment !== true) {
    add(failures, 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
  }
  if (route.config?.rateLimit || route.config?.guessLimit) add(failures, 429, 'TOO_MANY_REQUESTS');
  for (const [status, keys] of Object.entries(operation.errors ?? {})) add(failures, Number(status), ...keys);
  return failures;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported media type',
  422: 'Unprocessable',
  429: 'Too many requests: wait for the `Retry-After` header (seconds) before trying again',
  503: 'Unavailable',
};

/** An error response: the shared body, and which messageKeys it can carry with their English text. */
function errorResponse(status: number, keys: Set<MessageKey>) {
  const lines = [...keys].map((key) => `- \`${key}\`: ${errorMessage(key, 'en')}`);
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. \`messageKey\` is one of:\n\n${lines.join('\n')}`,
    content: { 'application/json': { schema: errorBodySchema } },
  };
}

const SUCCESS_TEXT: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'No content' };

/** @fastify/swagger calls every answer without a description "Default Response"; successes get their name. */
function nameSuccesses(openapi: { paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> }): void {
  for (const item of Object.values(openapi.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response' && SUCCESS_TEXT[status]) response.description = SUCCESS_TEXT[status];
      }
    }
  }
}

/** The operation's description, with the permission a staff operation needs and the roles that have it (issue 47). */
function descriptionOf(operation: Operation, permission: Permission | undefined): { description?: string } {
  const needs = permission ? `Needs the permission \`${permission}\` (roles: ${rolesWith(permission).join(', ')}).` : null;
  const text = [operation.description, needs].filter((part): part is string => Boolean(part)).join('\n\n');
  return text ? { description: text } : {};
}

/** A route's method other than Fastify's automatic HEAD twin of a GET. */
function methodsOf(route: Pick<RouteOptions, 'method'>): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');
}

/**
 * The entry of ./openapi-operations.ts for a route of the API. There is no fallback: an operation without
 * its operationId (a generated client's method name) and tag is not documented, it is a mistake, found at
 * start by the onRoute hook below.
 */
function operationOf(method: string, url: string): Operation {
  const key = `${method} ${url}` as OperationKey;
  const operation = OPERATIONS[key];
  if (!operation) throw new Error(`${key} has no entry in server/plugins/openapi-operations.ts: give it its operationId, tag and summary there`);
  return operation;
}

const API_DESCRIPTION = `The Shapelab account portal's API: accounts, subscriptions, licences, the desktop application's
activation and reports, and the admin tools.

**Authentication.** \`POST /api/auth/login\` answers an access token (a JWT) and an offline token. Send the
access token as \`Authorization: Bearer <token>\`. An account with a second factor answers
\`{ twoFactorRequired: true, challenge, methods }\` instead: send the challenge with a code from the
authenticator app, a recovery code or a passkey to \`POST /api/auth/login/two-factor\` for the tokens. A token past half its life comes back renewed in the
\`Bearer\` response header; keep the newest. \`POST /api/auth/validate\` trades the offline token for a new
access token once it has expired. The desktop application activates a computer with the access token and
from then on uses the device token it gets (\`sld_...\`, see the *Devices* tag).

**Errors.** Every error answer has the body \`{ messageKey, message }\` (schema \`${ERROR_COMPONENT}\`):
\`messageKey\` is stable and meant for programs, \`message\` is a text for people in the language of
\`Accept-Language\` (en or de). Each operation lists the keys it can answer; any operation can also answer
500 \`DEFAULT\`, and unknown paths under /api answer 404 \`NOT_FOUND\`.

**Requests.** Bodies are JSON (\`Content-Type: application/json\`); anything else is 415.`;

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * Issue 19: an OpenAPI 3.1 document made from the routes' zod schemas (the same ones that validate and
 * serialise, so the document cannot disagree with the server), served at `GET /api/openapi.json`, and
 * Swagger UI reading it at `/api/docs`. Registered before the routes: @fastify/swagger collects them as they
 * are added (onRoute). Error responses, security, tags and summaries are added per route by the transform.
 */
export async function registerOpenApi(app: FastifyInstance, options: { guards: Guards; serverUrl: string }): Promise<void> {
  const { guards } = options;
  // A registry of our own, so the error component needs no global zod state.
  const registry = z.registry<{ id?: string }>();
  registry.add(errorBodySchema, { id: ERROR_COMPONENT });
  const zodTransform = createJsonSchemaTransform({ schemaRegistry: registry });
  const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: registry });

  // Every route of the API has its entry, checked as it is added: a route without one stops the app at
  // start (every test then names it) rather than reaching the document tagless and unnamed.
  app.addHook('onRoute', (route) => {
    if (!isDocumented(route.url)) return;
    for (const method of methodsOf(route)) operationOf(method, route.url);
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Shapelab account portal API',
        version: packageVersion(),
        description: API_DESCRIPTION,
        // Proprietary: the portal's Terms of Use (the page /terms) govern its use, this API's included.
        license: { name: 'Proprietary', url: `${options.serverUrl}/terms` },
      },
      servers: [{ url: options.serverUrl }],
      tags: [...TAGS],
      components: {
        securitySchemes: {
          accessToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The access token from `POST /api/auth/login` (or `/api/auth/validate`, `/api/auth/{provider}/redirect`).',
          },
          deviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The device token (`sld_...`) from `POST /api/desktop/activate`; it dies when its seat is released or replaced.',
          },
        },
      },
    },
    transform: (document) => {
      const route = document.route as RouteOptions;
      if (!isDocumented(document.url)) return { schema: { hide: true } as never, url: document.url };
      const method = methodsOf(route)[0] ?? 'GET';
      const operation = operationOf(method, document.url);
      const access = accessOf(route, guards, operation);
      const permission = access === 'staff' ? (route.config?.permission as Permission | undefined) : undefined;
      const schema = route.schema ?? {};
      const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
      for (const [status, keys] of failuresOf(route, access, operation, method)) response[status] ??= errorResponse(status, keys);
      const transformed = zodTransform({ ...document, schema: { ...schema, response } as typeof document.schema }).schema as { response?: object };
      return {
        url: document.url,
        schema: {
          ...transformed,
          ...(operation.responses ? { response: { ...transformed.response, ...operation.responses } } : {}),
          operationId: operation.operationId,
          tags: access === 'staff' ? [operation.tag, 'Admin'] : [operation.tag],
          summary: operation.summary,
          ...descriptionOf(operation, permission),
          // Issue 47: the permission the staff guard checks, for programs (tests/api/staff-permissions.test.ts reads it).
          ...(permission ? { 'x-permission': permission } : {}),
          security: SECURITY[access],
        } as never,
      };
    },
    transformObject: (document) => {
      const openapi = zodTransformObject(document) as { components?: { schemas?: Record<string, Record<string, unknown>> } };
      const schemas = openapi.components?.schemas ?? {};
      // The error body is only ever an answer: its input twin (made for every registered schema) is noise.
      delete schemas[`${ERROR_COMPONENT}Input`];
      if (schemas[ERROR_COMPONENT]) {
        schemas[ERROR_COMPONENT].description =
          'Every error answer. `messageKey` is stable, for programs (each operation lists the ones it can answer); `message` is its text for people, in the language of `Accept-Language`.';
      }
      nameSuccesses(openapi as { paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> });
      return openapi as ReturnType<typeof zodTransformObject>;
    },
  });

  // The document at a stable address of its own (Swagger UI also serves it at /api/docs/json).
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());

  await app.register(fastifySwaggerUi, {
    routePrefix: OPENAPI_PAGE_PATH,
    // Its scripts and styles come from the package (no CDN); no call to the public validator either.
    validatorUrl: false,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    // server/plugins/security.ts gives everything under /api/ `default-src 'none'` (JSON is never a
    // document); this page is one, so it gets a policy of its own: only this origin, inline styles for
    // Swagger UI's React, data: images for its logo, and no framing.
    staticCSP: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
    theme: { title: 'Shapelab API reference' },
  });
}
