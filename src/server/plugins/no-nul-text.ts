import type { FastifyInstance } from 'fastify';
import { MSG } from '../../shared/messages';
import { badRequest } from '../errors';

/** Whether a decoded value (string, array or object, at any depth) carries a NUL character. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  // Raw bodies (the Stripe webhook's bytes) are not text fields.
  if (ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(([key, item]) => key.includes('\u0000') || hasNul(item, depth + 1));
}

/**
 * PostgreSQL cannot store or compare text with a NUL character; such a string in a path, query
 * or JSON body would otherwise fail deep in a query as a 500. No user text needs one: 400.
 */
export function registerNoNulText(app: FastifyInstance): void {
  // A callback hook: no promise per request for a check that never waits.
  app.addHook('preValidation', (request, _reply, done) => {
    done(hasNul(request.params) || hasNul(request.query) || hasNul(request.body) ? badRequest(MSG.textInvalidCharacters) : undefined);
  });
}
