import type { AppProcess } from './app-process';
import type { RequestSpec } from './load';
import type { VoteRequests } from './votes';

/** How long the app keeps a cached list or page at most (its default `listCacheTtlMs`). */
export const CACHE_LIFETIME_MS = 5_000;
/** Requests sent at once while caching, voting and looking. */
const AT_ONCE = 50;

export type Counters = Map<number, { likes: number; dislikes: number }>;

export interface Freshness {
  /** Per instance: ms from the last vote's answer to its look that matched the database, and what did not while its copies lived. */
  instances: Array<{ ms: number; stale: number[] }>;
  /** Why the check proves nothing (it ran past the caches' lifetime), if so. */
  inconclusive?: string;
  /** The check's own votes, for the counter check. */
  sent: number;
  accepted: number;
  failed: number;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response.json();
}

async function inChunks<T, R>(items: readonly T[], each: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += AT_ONCE)
    out.push(...(await Promise.all(items.slice(i, i + AT_ONCE).map((item, j) => each(item, i + j)))));
  return out;
}

async function send(baseUrl: string, spec: RequestSpec): Promise<number> {
  const response = await fetch(baseUrl + spec.path, {
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Whether a vote through one instance reaches what the others hold. Every instance caches the
 * pages of the servers the next `watched` votes go to and its top of Most liked; those votes are
 * sent to the instances in turn; then every instance must show the database's counters on all
 * of them, each seen right before its cached copy could have expired (else an instance that never
 * heard of the others' votes would pass by rebuilding its pages).
 */
export async function crossInstanceFreshness(
  apps: readonly AppProcess[],
  votes: VoteRequests,
  watched: number,
  truth: (ids: readonly number[]) => Promise<Counters>,
): Promise<Freshness> {
  const servers = [...new Set(votes.upcomingServers(watched))];
  // When each instance's copy of each page (and of its top 10) was asked for: the earliest it was made.
  const cachedAt = apps.map(() => new Map<number | 'top', number>());
  await Promise.all(
    apps.map(async (app, a) => {
      // A list is kept from its second request, a page from its first.
      for (let pass = 0; pass < 2; pass++) {
        cachedAt[a]!.set('top', performance.now());
        await getJson(`${app.baseUrl}/api/servers?sort=likes&limit=10`);
      }
      await inChunks(servers, (id) => {
        cachedAt[a]!.set(id, performance.now());
        return getJson(`${app.baseUrl}/api/servers/${id}`);
      });
    }),
  );
  const requests = servers.map(() => votes.next());
  const statuses = await inChunks(requests, (spec, i) => send(apps[i % apps.length]!.baseUrl, spec));
  const votedAt = performance.now();

  let late = false;
  // Seen by `a` at `seenAt`: could that copy have expired and been rebuilt since it was cached?
  const tooLate = (a: number, key: number | 'top', seenAt: number) => seenAt - cachedAt[a]!.get(key)! >= CACHE_LIFETIME_MS;
  const instances = await Promise.all(
    apps.map(async (app, a) => {
      let stale: number[] = [];
      let pending = servers;
      let listFresh = false;
      // Seen wrong while their copy lived: right only once it expired is still wrong.
      const wrongInTime = new Set<number | 'top'>();
      const settle = (key: number | 'top', seenAt: number, right: boolean): boolean => {
        const inTime = !tooLate(a, key, seenAt);
        if (!right) {
          if (inTime) wrongInTime.add(key);
          return false;
        }
        // Right, but only after the copy could have expired: proves nothing, unless seen wrong before.
        if (!inTime && !wrongInTime.has(key)) late = true;
        return !wrongInTime.has(key) || inTime;
      };
      for (;;) {
        // Ids are strings in the API's answers.
        const top = (await getJson(`${app.baseUrl}/api/servers?sort=likes&limit=10`)) as Array<{
          id: string;
          likes: number;
          dislikes: number;
        }>;
        const topSeenAt = performance.now();
        const shown = await inChunks(pending, async (id) => ({
          counters: (await getJson(`${app.baseUrl}/api/servers/${id}`)) as { likes: number; dislikes: number },
          seenAt: performance.now(),
        }));
        const expected = await truth([...pending, ...top.map((s) => Number(s.id))]);
        const differs = (id: number, s: { likes: number; dislikes: number }) => {
          const want = expected.get(id);
          return !want || want.likes !== s.likes || want.dislikes !== s.dislikes;
        };
        const staleTop = top.filter((s) => differs(Number(s.id), s)).map((s) => Number(s.id));
        if (!listFresh) listFresh = settle('top', topSeenAt, staleTop.length === 0);
        pending = pending.filter((id, i) => !settle(id, shown[i]!.seenAt, !differs(id, shown[i]!.counters)));
        stale = [...new Set([...pending, ...(listFresh ? [] : staleTop.length > 0 ? staleTop : top.map((s) => Number(s.id)))])];
        const ms = performance.now() - votedAt;
        // Past every copy's lifetime an instance may show anything fresh: looking longer proves nothing.
        const expired = [...cachedAt[a]!.values()].every((t) => performance.now() - t >= CACHE_LIFETIME_MS);
        if (stale.length === 0 || expired) return { ms, stale };
        await new Promise((r) => setTimeout(r, 50));
      }
    }),
  );
  return {
    instances,
    ...(late ? { inconclusive: `a page or list was seen right only after its cached copy's ${CACHE_LIFETIME_MS} ms lifetime` } : {}),
    sent: requests.length,
    accepted: statuses.filter((s) => s >= 200 && s < 300).length,
    failed: statuses.filter((s) => s < 200 || s >= 300).length,
  };
}
