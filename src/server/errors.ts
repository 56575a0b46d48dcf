import { MSG } from '../shared/messages';

/**
 * An error the user may see: a status and its message from `src/shared/messages.ts`.
 * Anything else that reaches the error handler is a bug and answers a generic 500.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string = MSG.loginRequired) => new AppError(401, message);
export const forbidden = (message: string = MSG.forbidden) => new AppError(403, message);
export const notFound = (message: string = MSG.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooMany = (retryAfterSeconds: number, message: string = MSG.tooMany) =>
  new AppError(429, message, { 'retry-after': String(retryAfterSeconds) });
export const unavailable = (message: string) => new AppError(503, message);

/** PostgreSQL's unique_violation, the same code from both drivers. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
