import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers: a CSP that allows no inline script, nosniff, HSTS only behind TLS, and no
 * X-Powered-By (Fastify never sends one). Helmet's middleware is built once here: @fastify/helmet
 * rebuilt it (parsing every CSP directive again) on each request, a tenth of the CPU of a hot read
 * (docs/decisions/023-hot-reads.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const tls = publicUrl.startsWith('https://');
  // Browsers differ on whether 'self' covers ws(s): of the same host, so this site's socket is named.
  const socketOrigin = `${tls ? 'wss' : 'ws'}://${new URL(publicUrl).host}`;
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React sets style attributes; no script can be injected through them.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", socketOrigin],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(tls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: tls ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });
}
