import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers: a CSP that allows no inline script, nosniff, HSTS only behind TLS, and no
 * X-Powered-By (Fastify never sends one). Helmet's middleware is built once here: @fastify/helmet
 * rebuilt it (parsing every CSP directive again) on each request, a tenth of the CPU of a hot read
 * (docs/decisions/023-hot-reads.md). Its headers depend on nothing in the request (no nonces), so
 * helmet runs once at start-up and each request gets the recorded headers as one object: eleven
 * `setHeader` calls per request were the largest cost left in a cached read. Returns them, for
 * answers sent outside Fastify.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<Readonly<Record<string, string>>> {
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
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  let failed: unknown;
  setHeaders({} as Parameters<typeof setHeaders>[0], recorder as unknown as Parameters<typeof setHeaders>[1], (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed as Error;
  // Helmet sets them synchronously; should that ever change, stop here rather than send none.
  if (!headers['content-security-policy']) throw new Error('security headers were not recorded');
  // A route may still replace one of them (reply.header), as it could before.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return headers;
}
