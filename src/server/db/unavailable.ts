/** Socket errors: the database (or the network to it) is not there right now. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL codes that say "try again later", not "your query is wrong": admin_shutdown,
 * crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (statement timeout),
 * lock_not_available, and every connection exception (class 08).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03']);

/** What pg and pg-pool throw, without a code, when a connection dies, never comes or is too slow. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

/**
 * True when an error means the database is unreachable, restarting or too slow: the request may
 * succeed if tried again, so it answers 503 with Retry-After instead of a 500. Wrapped errors
 * (`cause`, AggregateError) are looked through.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || SERVER_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((re) => re.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** Seconds a client is asked to wait before trying again after a database fault. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
