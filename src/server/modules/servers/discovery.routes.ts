import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import {
  listServersQuerySchema,
  pageQuerySchema,
  reviewListSchema,
  serverDetailSchema,
  serverListSchema,
  serverOfTheWeekendSchema,
  TOTAL_CAPPED_HEADER,
} from '../../../shared/schemas/server';
import { sendCached, sendCachedSoon, sendJsonText, type CachedBody } from '../../lib/cached-body';
import { clientAddressResolver } from '../../lib/client-address';
import { frontKey, type FrontCache } from '../../lib/front-cache';
import { currentUser } from '../../plugins/auth';
import type { Visitor } from './audience-counter';
import type { DiscoveryService } from './discovery.service';

const errors = { 400: errorSchema, 404: errorSchema };

/** Lists and feeds: the same answer whoever asks, so a logged-in caller is answered from memory too. */
const EVERYONE = { anyCaller: true };

const LIST_PARAMETERS = new Set(Object.keys(listServersQuerySchema.shape));

/** Whether every parameter of a list URL is one the list reads (others are dropped by the schema). */
const onlyKnownParameters = (url: string): boolean => {
  const at = url.indexOf('?');
  if (at < 0) return true;
  for (const key of new URLSearchParams(url.slice(at + 1)).keys()) if (!LIST_PARAMETERS.has(key)) return false;
  return true;
};

const totalHeaders = ({ total, capped }: { total: number; capped: boolean }): Record<string, string> =>
  capped ? { 'x-total-count': String(total), [TOTAL_CAPPED_HEADER]: '1' } : { 'x-total-count': String(total) };

/**
 * A held list's total headers, made once per answer: the front cache keeps its header lists by
 * the headers object it is handed, so a hit handing the same one allocates nothing for them.
 */
const heldTotals = new WeakMap<CachedBody, { total: number; capped: boolean; headers: Record<string, string> }>();
const totalHeadersOf = (page: { body: CachedBody; total: number; capped: boolean }): Record<string, string> => {
  const held = heldTotals.get(page.body);
  if (held && held.total === page.total && held.capped === page.capped) return held.headers;
  const headers = totalHeaders(page);
  heldTotals.set(page.body, { total: page.total, capped: page.capped, headers });
  return headers;
};

/**
 * An anonymous visitor answered before Fastify. Its address (X-Forwarded-For walked against
 * TRUST_PROXY) is worked out only when a view may count, not for a robot, and once. A class, not
 * a literal with a getter: V8 keeps what such a literal reaches alive until a full collection
 * (docs/decisions/046-no-literal-getters.md).
 */
class FrontVisitor implements Visitor {
  readonly user = undefined;
  readonly userAgent: string | undefined;
  private address: string | undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly addressOf: (request: IncomingMessage) => string,
  ) {
    this.userAgent = request.headers['user-agent'];
  }

  get ip(): string {
    return (this.address ??= this.addressOf(this.request));
  }
}

const visitorOf = async (request: FastifyRequest): Promise<Visitor> => ({
  user: await currentUser(request),
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * Lists, search and server pages: public, logged in or not. Totals go in `X-Total-Count`. What is
 * the same for everyone is sent as bytes made once (ETag, 304, gzip and brotli), without running
 * the response serializer again (docs/decisions/023-hot-reads.md).
 */
export const discoveryRoutes =
  ({
    discovery,
    front,
    config,
  }: {
    discovery: DiscoveryService;
    front?: FrontCache;
    config?: { trustProxy: boolean | number | string };
  }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Child plugins close before the app's own hooks, so the database is still open for the last counts.
    app.addHook('onClose', () => discovery.stopCounting());
    // The same for everyone: answered before Fastify while held (docs/decisions/039-front-cache.md).
    const held = (peek: () => CachedBody | undefined) => () => {
      const body = peek();
      return body && { body };
    };
    front?.route(`${app.prefix}/servers/just-joined`, held(discovery.peekJustJoined), EVERYONE);
    front?.route(`${app.prefix}/server-of-the-weekend`, held(discovery.peekWeekend), EVERYONE);
    const addressOf = clientAddressResolver(config?.trustProxy ?? false);

    r.get('/servers', {
      schema: { tags: ['discovery'], querystring: listServersQuerySchema, response: { 200: serverListSchema, ...errors } },
      handler: async (request, reply) => {
        const { body, total, capped } = await discovery.list(request.query, await visitorOf(request));
        reply.header('x-total-count', String(total));
        if (capped) reply.header(TOTAL_CAPPED_HEADER, '1');
        const peek = discovery.listPeeker(request.query);
        if (peek?.() && onlyKnownParameters(frontKey(request.url))) {
          front?.offer(
            request.url,
            () => {
              const page = peek();
              return page && { body: page.body, headers: totalHeadersOf(page) };
            },
            EVERYONE,
          );
        }
        // Most searches are asked once: compressed beside the event loop.
        return sendCachedSoon(request, reply, body);
      },
    });

    r.get('/servers/just-joined', {
      schema: { tags: ['discovery'], response: { 200: serverListSchema } },
      handler: async (request, reply) => sendCached(request, reply, await discovery.justJoined()),
    });

    r.get('/server-of-the-weekend', {
      schema: { tags: ['discovery'], response: { 200: serverOfTheWeekendSchema } },
      handler: async (request, reply) => sendCached(request, reply, await discovery.serverOfTheWeekend()),
    });

    r.get('/servers/:id', {
      schema: { tags: ['discovery'], params: idParams(MSG.serverNotFound), response: { 200: serverDetailSchema, ...errors } },
      handler: async (request, reply) => {
        const visitor = await visitorOf(request);
        // A logged-in caller's answer carries their own state: serialised per request.
        if (visitor.user) return sendJsonText(reply, await discovery.detail(request.params.id, visitor));
        const body = await discovery.anonymousDetail(request.params.id, visitor);
        const { id } = request.params;
        // Only the plain spelling (and the web app's timestamp): `/servers/12?pad=…` and the like go through the route.
        // Only a page the cache holds: one loaded for a single ask (a shared link, a crawl) would be
        // offered for nothing, and a stream of them pushed the pages in use out of the front cache.
        if (frontKey(request.url) === `${app.prefix}/servers/${id}` && discovery.pageHeld(id))
          front?.offer(request.url, (raw) => {
            const held = discovery.peekAnonymousDetail(id, new FrontVisitor(raw, addressOf));
            return held && { body: held };
          });
        return sendCached(request, reply, body);
      },
    });

    r.get('/servers/:id/reviews', {
      schema: {
        tags: ['discovery'],
        params: idParams(MSG.serverNotFound),
        querystring: pageQuerySchema,
        response: { 200: reviewListSchema, ...errors },
      },
      handler: async (request, reply) => {
        const { reviews, total } = await discovery.reviews(
          request.params.id,
          await currentUser(request),
          request.query.limit,
          request.query.offset,
        );
        return reply.header('x-total-count', String(total)).send(reviews);
      },
    });
  };
