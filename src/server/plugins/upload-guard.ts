import type { FastifyRequest, RouteOptions, onRequestAsyncHookHandler } from 'fastify';
import { LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';
import { AppError, notFound } from '../errors';
import { parseId } from '../lib/ids';
import { MAX_UPLOAD_BYTES } from '../adapters/images';
import { playersPolicy } from '../policies/players.policy';
import { requireUser } from './auth';

/** Room for multipart boundaries, part headers and the text fields sent beside the files. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const bodyLimits = new WeakMap<FastifyRequest, number>();

/**
 * Upload bodies are held in memory while they are parsed, so the bytes all uploads in flight may
 * declare are capped for the process: past it, a new upload answers 503 with Retry-After instead
 * of letting slow or stalled senders pile up memory.
 */
export const UPLOAD_BUDGET_BYTES = 256 * 1024 * 1024;
const budget = { inFlight: 0 };

/** Bytes reserved by uploads in flight now (tests check they are given back). */
export function uploadBytesInFlight(): number {
  return budget.inFlight;
}

/** The most bytes this upload request may send (undefined: not an upload route). */
export function uploadBodyLimit(request: FastifyRequest): number | undefined {
  return bodyLimits.get(request);
}

/** How many files a multipart route takes at most, from its path. */
function filesOf(url: string): number {
  if (url.endsWith('/upload-gallery')) return LIMITS.galleryImages;
  if (url.endsWith('/customize')) return LIMITS.galleryImages + 2;
  if (/\/(upload-profile|upload-banner)$/.test(url) || url.startsWith('/api/players/')) return 1;
  return LIMITS.galleryImages + 2;
}

/**
 * The ownership check a multipart route needs, from its path: whose object the body would change.
 * It runs before the route's schema, so the id is still the raw text of the URL.
 */
function ownerCheckOf(url: string): ((request: FastifyRequest) => Promise<void>) | undefined {
  if (url.startsWith('/api/servers/:id')) {
    return async (request) => {
      const actor = await requireUser(request);
      const id = parseId((request.params as { id?: string }).id);
      if (!id) throw notFound(MSG.serverNotFound);
      await request.server.ctx.servers.assertCanManage(actor, id);
    };
  }
  if (url.startsWith('/api/players/:id')) {
    return async (request) => {
      const actor = await requireUser(request);
      const id = parseId((request.params as { id?: string }).id);
      if (!id) throw notFound(MSG.playerNotFound);
      playersPolicy.assertCanEdit(actor, id);
    };
  }
  return undefined;
}

/** The body of a refused upload is never read: the connection closes after the answer instead. */
function closing(error: AppError): AppError {
  return new AppError(error.statusCode, error.message, { ...error.headers, connection: 'close' });
}

/**
 * For every route that takes multipart/form-data: before a byte of the body is read, the caller
 * must be allowed to change the object the URL names (401/403/404) and a declared
 * Content-Length must fit the route's files (413). A body without Content-Length is cut at the
 * same limit while it is read (`readMultipart`).
 */
export function guardUploadRoute(route: RouteOptions): void {
  const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes;
  if (!consumes?.includes('multipart/form-data')) return;
  const limit = filesOf(route.url) * MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES;
  const ownerCheck = ownerCheckOf(route.url);
  const hook: onRequestAsyncHookHandler = async (request, reply) => {
    bodyLimits.set(request, limit);
    if (ownerCheck) {
      try {
        await ownerCheck(request);
      } catch (error) {
        throw error instanceof AppError ? closing(error) : error;
      }
    }
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw closing(new AppError(413, MSG.imageTooLarge));
    // A body without Content-Length may still grow to the route's limit: reserve that much.
    const reserve = Number.isFinite(declared) && declared > 0 ? declared : limit;
    if (budget.inFlight + reserve > UPLOAD_BUDGET_BYTES) throw closing(new AppError(503, MSG.busy, { 'retry-after': '5' }));
    budget.inFlight += reserve;
    let released = false;
    // Given back once the answer is sent or the connection drops, whichever comes first.
    reply.raw.once('close', () => {
      if (released) return;
      released = true;
      budget.inFlight -= reserve;
    });
  };
  const existing = route.onRequest;
  route.onRequest = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
}
