import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache';

describe('page cache', () => {
  it('keeps each compressed page in a buffer of its own size, not in a share of zlib’s output chunk', () => {
    const html = `<!doctype html><html><body>${Array.from({ length: 2000 }, (_, i) => `<p>row ${i}</p>`).join('')}</body></html>`;
    const page = new PageCache().get('/servers/1', html, true);
    for (const encoding of ['br', 'gzip'] as const) {
      const bytes = page.compressed(encoding);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
      const decompress = encoding === 'br' ? zlib.brotliDecompressSync : zlib.gunzipSync;
      expect(decompress(bytes).toString()).toBe(html);
    }
  });

  it('compresses a page quickly for its first answer, well for its second, and keeps that', () => {
    const html = `<!doctype html><html><body>${Array.from({ length: 3000 }, (_, i) => `<p class="row r${i % 7}">Server ${(i * 7919) % 1000} of the list</p>`).join('')}</body></html>`;
    const cache = new PageCache();
    const page = cache.get('/servers/2', html, true);
    for (const encoding of ['br', 'gzip'] as const) {
      const decompress = encoding === 'br' ? zlib.brotliDecompressSync : zlib.gunzipSync;
      const first = page.compressed(encoding);
      const second = page.compressed(encoding);
      expect(decompress(first).toString()).toBe(html);
      expect(decompress(second).toString()).toBe(html);
      expect(second.length).toBeLessThan(first.length);
      expect(second.buffer.byteLength).toBe(second.length);
      // Made well once: the same bytes on every later call, and as the front cache sends the page.
      expect(page.compressed(encoding)).toBe(second);
      expect(page.body.encoded(encoding)).toBe(second);
    }
    // The front cache keeps a body's length per encoding: its bytes are the good ones from the first call.
    const otherHtml = html.replace('Server', 'Host');
    const other = cache.get('/servers/3', otherHtml, true);
    const front = other.body.encoded('br');
    expect(other.compressed('br')).toBe(front);
    expect(other.body.encoded('br')).toBe(front);
    expect(front.length).toBeLessThan(new PageCache().make('/servers/3', otherHtml, true).compressed('br').length);
  });
});
