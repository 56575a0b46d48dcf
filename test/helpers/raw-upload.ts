import http from 'node:http';

export interface RawUploadResult {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** From the first byte sent to the answer's headers. */
  ms: number;
  /** Body bytes the client had written when the answer came. */
  sent: number;
}

/**
 * Sends an upload over real HTTP a chunk at a time and stops as soon as the server answers, so a
 * test can see whether the server decided before reading the whole body. `declaredLength` sets
 * Content-Length (omitted: chunked); `chunks` yields the body; `timeoutMs` bounds the wait.
 */
export function rawUpload(options: {
  port: number;
  method?: string;
  path: string;
  headers: Record<string, string>;
  declaredLength?: number;
  chunks: Iterable<Buffer>;
  timeoutMs?: number;
}): Promise<RawUploadResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: '127.0.0.1',
      port: options.port,
      method: options.method ?? 'POST',
      path: options.path,
      headers: {
        ...options.headers,
        ...(options.declaredLength !== undefined
          ? { 'content-length': String(options.declaredLength) }
          : { 'transfer-encoding': 'chunked' }),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 5000} ms (sent ${sent} bytes)`));
    }, options.timeoutMs ?? 5000);
    req.on('error', (err) => {
      if (!answered) {
        clearTimeout(timer);
        reject(err);
      }
    });
    req.on('response', (res) => {
      answered = true;
      const ms = Date.now() - started;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers, ms, sent });
      });
      res.on('error', () => undefined);
    });
    const iterator = options.chunks[Symbol.iterator]();
    const pump = () => {
      while (!answered) {
        const next = iterator.next();
        if (next.done) {
          // A declared length longer than what was sent leaves the request open: the server must answer anyway.
          if (options.declaredLength === undefined) req.end();
          return;
        }
        sent += next.value.length;
        if (!req.write(next.value)) {
          req.once('drain', () => setImmediate(pump));
          return;
        }
      }
    };
    pump();
  });
}

/** `count` chunks of `size` bytes of filler, produced lazily so a test never holds them all. */
export function* filler(count: number, size = 64 * 1024, byte = 0x41): Generator<Buffer> {
  const chunk = Buffer.alloc(size, byte);
  for (let i = 0; i < count; i++) yield chunk;
}
