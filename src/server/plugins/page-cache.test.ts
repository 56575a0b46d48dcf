import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageCache, RENDERED_COUNTERS_LAG_MS } from './page-cache';

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

  it('holds a page as its UTF-8 bytes, knows the same page again, and counts its bound in those bytes', () => {
    // Characters beyond Latin-1, as the built pages have: a string of them is two bytes a character in V8.
    const html = (n: number) => `<!doctype html><p>Server’s page ${n}…</p>${'x'.repeat(1_000)}`;
    // Ten of the largest below fit the bound in UTF-8 (at two bytes a character, five would).
    const largest = Buffer.byteLength(html(10)) + '/servers/10'.length;
    const cache = new PageCache({ maxBytes: 10 * largest });
    const first = cache.get('/servers/1', html(1), true);
    expect(Buffer.isBuffer(first.html)).toBe(true);
    expect(first.html.equals(Buffer.from(html(1)))).toBe(true);
    expect(cache.get('/servers/1', html(1), true)).toBe(first);
    const changed = cache.get('/servers/1', html(2), true);
    expect(changed).not.toBe(first);
    expect(changed.etag).not.toBe(first.etag);
    expect(cache.get('/servers/1', html(2), false)).not.toBe(changed);
    // Ten fit, the eleventh drops the oldest.
    for (let i = 2; i <= 11; i++) cache.get(`/servers/${i}`, html(i), true);
    expect(cache.fresh('/servers/1', 60_000)).toBeUndefined();
    expect(cache.fresh('/servers/2', 60_000)).toBeDefined();
    expect(cache.fresh('/servers/11', 60_000)).toBeDefined();
  });

  it('keeps a page from its second ask: a crawl of pages each opened once leaves nothing held and pushes nothing out', () => {
    const html = (n: number) => `<!doctype html><p>Server page ${n}</p>${'x'.repeat(1_000)}`;
    const cache = new PageCache({ max: 50, keepFromSecondAsk: true });
    const home = () => cache.get('/home', html(0), true);
    home();
    expect(cache.fresh('/home', 60_000)).toBeUndefined();
    const held = home();
    expect(cache.fresh('/home', 60_000)).toBe(held);
    // A thousand server pages asked once each: sent, never held, and the page people ask for stays.
    for (let i = 1; i <= 1000; i++) {
      const page = cache.get(`/servers/${i}`, html(i), true);
      expect(page.html.toString()).toBe(html(i));
      expect(cache.fresh(`/servers/${i}`, 60_000)).toBeUndefined();
    }
    expect(cache.fresh('/home', 60_000)).toBe(held);
    // A held page made again with new HTML is kept at once, and the last one asked, asked again, is kept.
    expect(cache.get('/home', html(1), true)).toBe(cache.fresh('/home', 60_000));
    cache.get('/servers/1000', html(1000), true);
    expect(cache.fresh('/servers/1000', 60_000)).toBeDefined();
    // A change of content drops every page; those held are held again at their next ask.
    cache.clear();
    expect(cache.fresh('/home', 60_000)).toBeUndefined();
    cache.get('/home', html(2), true);
    expect(cache.fresh('/home', 60_000)).toBeDefined();
    cache.get('/servers/5000', html(5000), true);
    expect(cache.fresh('/servers/5000', 60_000)).toBeUndefined();
  });

  describe('behind the counters', () => {
    afterEach(() => vi.useRealTimers());
    const LAG = RENDERED_COUNTERS_LAG_MS;

    it('holds a page drawn with its content until a change of counters is older than the lag; a frame for its fresh time', () => {
      vi.useFakeTimers({ now: 100_000 });
      const cache = new PageCache();
      cache.get('/home', '<p>rendered</p>', true);
      cache.get('/login', '<p>frame</p>', false);
      cache.countersChanged();
      vi.advanceTimersByTime(LAG - 1);
      expect(cache.held('/home', 5000)?.behind).toBe(false);
      vi.advanceTimersByTime(1);
      expect(cache.held('/home', 5000)?.behind).toBe(true);
      expect(cache.fresh('/home', 5000)).toBeUndefined();
      expect(cache.fresh('/login', 5000)).toBeDefined();
      // Made again after the change: fresh until the next one.
      cache.get('/home', '<p>rendered again</p>', true);
      vi.advanceTimersByTime(4000);
      expect(cache.fresh('/home', 5000)).toBeDefined();
      vi.advanceTimersByTime(1000);
      expect(cache.held('/home', 5000)).toBeUndefined();
    });

    it("counts a change as missed up to the answers' lag before the page was begun", () => {
      vi.useFakeTimers({ now: 100_000 });
      const cache = new PageCache({ answersBehindMs: 300 });
      cache.countersChanged();
      vi.advanceTimersByTime(200);
      // Begun 200 ms after the change, from answers that may not show it yet.
      cache.get('/home', '<p>rendered</p>', true);
      vi.advanceTimersByTime(LAG - 200);
      expect(cache.held('/home', 5000)?.behind).toBe(true);
      cache.get('/list', '<p>rendered</p>', true, Date.now() - LAG + 400);
      // Begun 400 ms after the change: the answers showed it.
      expect(cache.held('/list', 5000)?.behind).toBe(false);
    });

    it('refuses answers that lag as long as pages may: every page would always be behind', () => {
      expect(() => new PageCache({ answersBehindMs: LAG })).toThrow();
    });
  });
});
