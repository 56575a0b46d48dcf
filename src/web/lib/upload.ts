import { ApiError, apiHeaders, apiUrl, failure } from './api-client';

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Called with the share sent so far, 0 to 1, while the body uploads. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a multipart form like {@link apiRequest} does JSON (same no-cache header, `t` parameter and
 * bearer token), but through XMLHttpRequest: fetch cannot report upload progress. Resolves with
 * the parsed JSON answer; a non-2xx answer rejects with an {@link ApiError}.
 */
export function uploadMultipart(path: string, form: FormData, options: UploadOptions = {}): Promise<unknown> {
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
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
