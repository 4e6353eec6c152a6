import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A Paddle API error: its HTTP status, Paddle's error `code` and a readable detail. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly type: 'request_error' | 'api_error' = 'request_error',
  ) {
    super(detail);
  }
}

export const notFound = (what: string) => new SandboxError(404, 'not_found', `${what} not found`);
export const invalid = (detail: string) => new SandboxError(400, 'invalid_field', detail);

export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export type Route = {
  method: string;
  pattern: RegExp;
  handle: (request: SandboxRequest, params: string[]) => unknown;
};

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new SandboxError(400, 'bad_request', 'Invalid request body');
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Lists are answered in one page, with Paddle's pagination meta. */
export function list<T>(items: T[]): { list: T[] } {
  return { list: items };
}

/**
 * Paddle's envelope around every answer (`{ data, meta: { request_id } }`), its error shape, and the
 * bearer API key check; the routes return the data or throw a SandboxError. `beforeEach` lets time-driven
 * work (renewals) catch up before a request is answered.
 */
export function createHandler(apiKey: string, routes: Route[], beforeEach: () => void = () => undefined) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    try {
      if (req.headers.authorization?.replace(/^bearer /i, '') !== apiKey) {
        throw new SandboxError(403, 'forbidden', 'You aren’t permitted to perform this request.');
      }
      beforeEach();
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const method = req.method ?? 'GET';
      for (const route of routes) {
        const match = route.method === method ? route.pattern.exec(url.pathname) : null;
        if (!match) continue;
        const body = method === 'GET' || method === 'DELETE' ? {} : await readJson(req);
        const result = await route.handle({ method, path: url.pathname, query: url.searchParams, body }, match.slice(1));
        if (result && typeof result === 'object' && 'list' in result) {
          const items = (result as { list: unknown[] }).list;
          send(res, 200, {
            data: items,
            meta: { request_id: requestId, pagination: { per_page: Math.max(items.length, 50), next: url.toString(), has_more: false, estimated_total: items.length } },
          });
          return;
        }
        send(res, method === 'POST' && /^\/(customers|transactions)(\/[^/]+\/(addresses|businesses))?$/.test(url.pathname) ? 201 : 200, {
          data: result,
          meta: { request_id: requestId },
        });
        return;
      }
      throw new SandboxError(404, 'not_found', `No route for ${method} ${url.pathname}`);
    } catch (error) {
      const known = error instanceof SandboxError ? error : new SandboxError(500, 'internal_error', (error as Error).message, 'api_error');
      send(res, known.status, {
        error: { type: known.type, code: known.code, detail: known.message, documentation_url: `https://developer.paddle.com/errors/shared/${known.code}` },
        meta: { request_id: requestId },
      });
    }
  };
}
