import { getToken } from './session';

/** A failed API call: the HTTP status and the server's `{error}` text when it sent one. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly serverMessage: string | undefined,
  ) {
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The one request layer of spec §7: every call carries `Cache-Control: no-cache`, a `t` timestamp
 * and the bearer token when there is one. A non-2xx answer throws an {@link ApiError}; 401 and 403
 * are only logged here, the caller decides what they mean.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const url = new URL(path, window.location.origin);
  url.searchParams.set('t', String(Date.now()));
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache', Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined);
  }

  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 || response.status === 403) {
      console.warn(`${options.method ?? 'GET'} ${path} answered ${response.status}`);
    }
    throw new ApiError(response.status, serverError(data));
  }
  return data;
}

function serverError(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string' && data.error.trim()) return data.error;
  return undefined;
}

/** The text to show for a failed call: the server's error when present, else the fallback (spec §8). */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
