/** Lookups of one cache: answered from it, or made afresh. */
export interface Lookups {
  hits: number;
  misses: number;
}

/** The app's response caches as its metrics count them: the front cache, lists, feeds and pages. */
export type CacheLookups = Record<string, Lookups>;

/**
 * Reads the cache counters from the app's metrics listener (`METRICS_PORT`, 127.0.0.1, no token):
 * `rp_cache_lookups_total{cache="lists",result="hit"} 123`.
 */
export async function readCacheLookups(port: number): Promise<CacheLookups> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const lookups: CacheLookups = {};
  for (const match of text.matchAll(/^rp_cache_lookups_total\{cache="(\w+)",result="(hit|miss)"\} (\d+)/gm)) {
    const cache = (lookups[match[1]!] ??= { hits: 0, misses: 0 });
    cache[match[2] === 'hit' ? 'hits' : 'misses'] = Number(match[3]);
  }
  return lookups;
}

/** What happened between two readings, per cache, with the share answered from it. */
export function lookupsBetween(before: CacheLookups, after: CacheLookups): Record<string, Lookups & { hitShare: number }> {
  const out: Record<string, Lookups & { hitShare: number }> = {};
  for (const [cache, now] of Object.entries(after)) {
    const was = before[cache] ?? { hits: 0, misses: 0 };
    const hits = now.hits - was.hits;
    const misses = now.misses - was.misses;
    out[cache] = { hits, misses, hitShare: hits + misses > 0 ? Math.round((hits / (hits + misses)) * 1000) / 1000 : 0 };
  }
  return out;
}
