import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache';

describe('page cache', () => {
  it('keeps each compressed page in a buffer of its own size, not in a share of zlib’s output chunk', () => {
    const html = `<!doctype html><html><body>${Array.from({ length: 2000 }, (_, i) => `<p>row ${i}</p>`).join('')}</body></html>`;
    const page = new PageCache().get('/servers/1', html, true);
    const br = page.compressed('br');
    const gzip = page.compressed('gzip');
    expect(br.buffer.byteLength).toBe(br.length);
    expect(gzip.buffer.byteLength).toBe(gzip.length);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(html);
    expect(zlib.gunzipSync(gzip).toString()).toBe(html);
    // Made once: the same bytes on every call.
    expect(page.compressed('br')).toBe(br);
  });
});
