import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database';
import { AppError, notFound } from '../errors';
import { metricsRepository } from '../modules/health';
import { registerScrapeMetrics } from './metrics-scrape';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Whether the header carries this bearer token; hashed first, so the comparison takes as long whatever was sent. */
function bearerMatches(header: string | undefined, tokenHash: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return crypto.timingSafeEqual(sha256(given), tokenHash);
}

const badToken = () => new AppError(401, 'A valid metrics token is required', { 'www-authenticate': 'Bearer realm="metrics"' });

/**
 * `GET /metrics` in Prometheus's text format, for operators only: with `METRICS_TOKEN` it answers
 * a request carrying that bearer token (401 otherwise), without it 404; with `METRICS_PORT` a
 * listener of its own on 127.0.0.1 answers it without a token (reachable only from this machine,
 * where an agent or a tunnel scrapes it). Hidden from the API document: it is no part of the API.
 *
 * With neither set nothing is measured beyond the services' own counters: no request timing, no
 * event-loop monitor. Registered before the routes, so the timing hook sees every one of them.
 */
export async function registerMetrics(app: FastifyInstance, handle: DatabaseHandle): Promise<void> {
  const { config, metrics, front, queue, discovery, db, now } = app.ctx;
  const { token, port } = config.metrics;
  const tokenHash = token ? sha256(token) : undefined;
  const { registry } = metrics;

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!tokenHash) throw notFound();
    if (!bearerMatches(request.headers.authorization, tokenHash)) throw badToken();
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
  if (!tokenHash && port === undefined) return;

  collectDefaultMetrics({ register: registry });
  registerScrapeMetrics(registry, {
    handle,
    repository: metricsRepository(db),
    queue,
    caches: () => ({ front: { hits: front.hits, misses: front.misses }, ...discovery.cacheLookups() }),
    now,
    log: app.log,
  });

  // Labelled by the route's pattern (`/api/servers/:id`), never the path asked for: one series per
  // route whatever ids, typos or probes arrive.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Fastify runs no hook for a request whose client hung up after sending it whole (its answer
  // never finishes): the response's close, before it finished, is the one sign of clients giving up.
  // An answer finishes before its response closes; `writableFinished` is no sign, as an injected
  // request's (a page renderer's) is never set.
  app.addHook('onRequest', (request, reply, done) => {
    const response = reply.raw;
    const closed = () => {
      response.off('finish', finished);
      metrics.abandonedRequest(request.method, request.routeOptions.url ?? 'unmatched');
    };
    const finished = () => response.off('close', closed);
    response.once('close', closed).once('finish', finished);
    done();
  });
  front.onAnswered((status, seconds) => metrics.observeRequest('GET', 'front-cache', status, seconds));

  if (port !== undefined) scrapeListener(app, registry, port);
}

/** A plain HTTP listener on 127.0.0.1 serving only `GET /metrics`; up with the app, closed with it. */
function scrapeListener(app: FastifyInstance, registry: Registry, port: number): void {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (err: unknown) => {
        app.log.error({ err }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Scrape failed\n');
      },
    );
  });
  // When the app gets ready (before it listens): a port already taken fails the start, loudly.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info(`metrics on http://127.0.0.1:${port}/metrics`);
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
}
