import { MSG } from '../../shared/messages';
import { PAGE_ANSWER_HEADERS, type PageAnswer } from '../../shared/prerender';
import { authResponseSchema } from '../../shared/schemas/auth';
import { clearMaintenance, reportMaintenance } from './maintenance';
import { clearSession, getToken, reloadSession, setSession } from './session';

/** A failed API call: the HTTP status and the server's `{error}` text when it sent one. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly serverMessage: string | undefined,
  ) {
    // eslint-disable-next-line lingui/no-unlocalized-strings -- for logs and developer tools: people see errorText's translated fallback
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** The URL of an API call, with a `t` timestamp so no cache between us and the server answers it. */
export function apiUrl(path: string): URL {
  const url = new URL(path, window.location.origin);
  url.searchParams.set('t', String(Date.now()));
  return url;
}

/** The headers every call carries: no-cache, and the bearer token when there is one. */
export function apiHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache', Accept: 'application/json' };
  const token = getToken();
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an HTTP header's value, not text
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Turns a non-2xx answer into an {@link ApiError}; 401 and 403 are only logged, the caller decides. */
export function failure(method: string, path: string, status: number, data: unknown): ApiError {
  if (status === 401 || status === 403) console.warn(`${method} ${path} answered ${status}`);
  const message = serverError(data);
  // Maintenance mode refuses writes with 503: the site-wide banner picks it up.
  if (status === 503 && message === MSG.maintenance) reportMaintenance();
  return new ApiError(status, message);
}

async function fetchOnce(path: string, options: RequestOptions, method: string): Promise<Response> {
  const headers = apiHeaders();
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(apiUrl(path), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined);
  }
}

// A 401 from these means wrong credentials or a dead session, never a stale access token.
const NO_REFRESH = ['/api/login', '/api/register', '/api/auth/'];

async function send(path: string, options: RequestOptions): Promise<{ data: unknown; headers: Headers }> {
  const method = options.method ?? 'GET';
  const sentToken = getToken();
  let response = await fetchOnce(path, options, method);
  if (response.status === 401 && sentToken && !NO_REFRESH.some((prefix) => path.startsWith(prefix))) {
    const outcome = await refreshSession(sentToken);
    if (outcome === 'renewed') response = await fetchOnce(path, options, method);
    else if (outcome === 'ended') clearSession();
  }

  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw failure(method, path, response.status, data);
  if (method !== 'GET') clearMaintenance();
  return { data, headers: response.headers };
}

/** What a refresh attempt came to: a new access token, the end of the session, or no answer (offline). */
export type RefreshOutcome = 'renewed' | 'ended' | 'failed';

let refreshing: Promise<RefreshOutcome> | null = null;

/** Runs `task` holding a lock shared by this site's tabs, where the browser has one. */
function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('rp-session-refresh', task) as Promise<T>) : task();
}

/** Trades the refresh cookie for a new access token (the cookie is replaced too) and stores the session. */
async function refreshWithCookie(): Promise<RefreshOutcome> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/api/auth/refresh'), {
      method: 'POST',
      headers: { 'Cache-Control': 'no-cache', Accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    return 'failed';
  }
  if (response.status === 401) return 'ended';
  const parsed = authResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!response.ok || !parsed.success) return 'failed';
  setSession(parsed.data);
  return 'renewed';
}

/**
 * Gets a new access token with the httpOnly refresh cookie after `failedToken` was refused. One
 * refresh at a time, across tabs too: a refresh token works once, so a second tab refreshing with
 * the same cookie would look like a stolen token and end the session. A tab that waited for the
 * lock first looks whether another tab already stored a new token.
 */
export function refreshSession(failedToken: string): Promise<RefreshOutcome> {
  refreshing ??= withTabLock(async (): Promise<RefreshOutcome> => {
    const stored = reloadSession();
    if (!stored) return 'ended';
    if (stored.token !== failedToken) return 'renewed';
    return refreshWithCookie();
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Takes up a session the server started during a redirect (sign-in with Discord): it set only the
 * refresh cookie, so the access token and user come from a refresh. Under the same lock as
 * {@link refreshSession}, since both spend the one-time refresh token.
 */
export function adoptSession(): Promise<RefreshOutcome> {
  return withTabLock(refreshWithCookie);
}

/**
 * The one request layer: every call carries `Cache-Control: no-cache`, a `t` timestamp
 * and the bearer token when there is one. A 401 to a call that sent a token first renews the
 * access token silently (refresh cookie) and retries once; a session the server ended is cleared.
 * Any other non-2xx answer throws an {@link ApiError}; 401 and 403 are only logged here.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  return (await send(path, options)).data;
}

/** {@link apiRequest} for calls whose headers matter too (`X-Total-Count` of paged lists). */
export async function apiRequestWithHeaders(path: string, options: RequestOptions = {}): Promise<{ data: unknown; headers: Headers }> {
  return send(path, options);
}

/** A GET answer in the form a server-rendered page carries it: the body and the headers the app reads. */
export async function apiAnswer(path: string): Promise<PageAnswer> {
  const { data, headers } = await send(path, {});
  const kept: Record<string, string> = {};
  for (const name of PAGE_ANSWER_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { data, headers: kept };
}

/** `X-Total-Count` of a paged list, or `fallback` when the header is missing or not a number. */
export function totalCount(headers: Headers, fallback: number): number {
  const header = headers.get('X-Total-Count');
  const value = Number(header);
  return header !== null && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function serverError(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string' && data.error.trim()) return data.error;
  return undefined;
}

/** The text to show for a failed call: the server's error when present, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
