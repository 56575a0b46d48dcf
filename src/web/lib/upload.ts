import { ApiError, apiHeaders, apiUrl, failure, refreshSession } from './api-client';
import { clearSession, getToken } from './session';

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Called with the share sent so far, 0 to 1, while the body uploads. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a multipart form like {@link apiRequest} does JSON (same no-cache header, `t` parameter and
 * bearer token), but through XMLHttpRequest: fetch cannot report upload progress. Resolves with
 * the parsed JSON answer; a non-2xx answer rejects with an {@link ApiError}. An access token that
 * ran out is renewed once with the refresh cookie and the upload sent again, as for JSON calls.
 */
export async function uploadMultipart(path: string, form: FormData, options: UploadOptions = {}): Promise<unknown> {
  const sentToken = getToken();
  try {
    return await sendOnce(path, form, options);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || !sentToken) throw error;
    const outcome = await refreshSession(sentToken);
    if (outcome === 'renewed') return sendOnce(path, form, options);
    if (outcome === 'ended') clearSession();
    throw error;
  }
}

function sendOnce(path: string, form: FormData, options: UploadOptions): Promise<unknown> {
  const method = options.method ?? 'POST';
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, apiUrl(path).toString());
    // The browser sets the multipart Content-Type with its boundary itself.
    for (const [name, value] of Object.entries(apiHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(data);
      } else {
        reject(failure(method, path, xhr.status, data));
      }
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, undefined)));
    // eslint-disable-next-line lingui/no-unlocalized-strings -- never shown (errorText shows its fallback for it), like fetch's own AbortError
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
