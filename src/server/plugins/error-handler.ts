import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors';
import { MSG } from '../../shared/messages';
import { errorCode } from '../../shared/error-codes';
import { extended } from '../lib/extended';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable';

/** Fastify's own client-error codes, answered with a clear message instead of its default text. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: MSG.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: MSG.unsupportedMedia,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: MSG.invalidJson,
  FST_REQ_FILE_TOO_LARGE: MSG.tooLarge,
  FST_FILES_LIMIT: MSG.tooLarge,
  FST_PARTS_LIMIT: MSG.tooLarge,
  FST_FIELDS_LIMIT: MSG.tooLarge,
};

/**
 * `q=a&q=b` reaches a schema that takes one value as an array, and zod's own text ("expected
 * string, received array") does not say what to change: the parameter is named instead.
 */
function repeatedParameter(context: string | undefined, instancePath: string | undefined, query: unknown): string | undefined {
  if (context !== 'querystring' || !instancePath || typeof query !== 'object' || query === null) return undefined;
  const name = instancePath.slice(1);
  return !name.includes('/') && Array.isArray((query as Record<string, unknown>)[name]) ? `${name} may be given only once` : undefined;
}

/**
 * An `{error}` answer with its machine code added. Made without a spread: a flood of refused
 * requests (429s, repeated votes) would otherwise make a V8 hidden class each
 * (docs/decisions/075-hidden-classes-per-request.md).
 */
export function withCode<B extends { error: string }>(body: B, statusCode: number): Omit<B, 'code'> & { code: string } {
  return extended(body, { code: errorCode(body.error, statusCode) });
}

/**
 * One error handler for the whole app: `{error}` with the right status, never a stack trace,
 * never a 500 for bad input. A database that is unreachable or too slow answers 503 with
 * Retry-After; other server errors are logged with the request id and hidden.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  // Every `{error}` answer, from the handler below or from a route, carries its machine code.
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
    const body = payload as { error?: unknown; code?: unknown };
    if (typeof body.error !== 'string' || body.code !== undefined) return payload;
    return withCode(body as { error: string }, reply.statusCode);
  });
  app.setErrorHandler((rawError: FastifyError | AppError | Error, request, reply) => {
    const error = rawError as FastifyError & { headers?: Record<string, string> };
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      // A path that names no row (an id that cannot exist) is not found, not bad input.
      if (error.validationContext === 'params') return reply.code(404).send({ error: first?.message ?? 'Not found' });
      return reply.code(400).send({
        error: repeatedParameter(error.validationContext, first?.instancePath, request.query) ?? first?.message ?? 'Invalid input',
      });
    }
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message = (error.code && FASTIFY_CLIENT_ERRORS[error.code]) ?? error.message ?? 'Bad request';
      if (status === 429 && error.headers) reply.headers(error.headers);
      return reply.code(status).send({ error: message });
    }
    if (isDatabaseUnavailable(error)) {
      // A lost, restarting or overloaded database is an outage to wait out, not a bug: 503, warn.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ error: MSG.unavailable });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: MSG.internal });
  });
}
