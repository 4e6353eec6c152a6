import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers. The CSP allows only this origin for scripts, frames and connections; inline styles
 * are allowed because MUI (emotion) injects its styles at run time. The payment provider's script and
 * frame origins are added here when the billing issue brings them.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { production: boolean; extraScriptSrc?: string[]; extraFrameSrc?: string[]; extraConnectSrc?: string[] },
): Promise<void> {
  await app.register(helmet, {
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
    hsts: options.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
}
