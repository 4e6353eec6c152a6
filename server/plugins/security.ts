import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers from helmet. The documents' CSP allows only this origin for scripts, frames and
 * connections; inline styles are allowed because MUI (emotion) injects its styles at run time. The
 * payment provider's script and frame origins are added here when the billing issue brings them.
 *
 * The headers do not depend on the request (no nonces), so helmet computes them once at start and each
 * reply gets a copy. (@fastify/helmet rebuilds helmet's middleware, CSP parsing included, on every
 * request: 18% of the CPU of a signed-in API call in bench/api.ts.)
 */
type HelmetOptions = NonNullable<Parameters<typeof helmet>[0]>;

/** Runs helmet once against a recorder and returns the headers it would set. */
function staticHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as never, () => undefined);
  return headers;
}

export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { production: boolean; extraScriptSrc?: string[]; extraFrameSrc?: string[]; extraConnectSrc?: string[] },
): void {
  const common: HelmetOptions = {
    strictTransportSecurity: options.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
  // The single-page app's documents.
  const documentHeaders = staticHeaders({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(options.extraScriptSrc ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(options.extraConnectSrc ?? [])],
        frameSrc: ["'self'", ...(options.extraFrameSrc ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // On plain-http development hosts an upgrade would break every request.
        upgradeInsecureRequests: options.production ? [] : null,
      },
    },
  });
  // JSON answers are never rendered as documents: nothing may load or frame them (OWASP REST guidance).
  const apiHeaders = staticHeaders({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : documentHeaders);
    reply.header('x-request-id', request.id);
    done();
  });
}
