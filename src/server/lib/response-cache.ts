import { AskedOnce } from './asked-once';

/**
 * Tags remembered as dropped past which they are pruned once a TTL has passed since the last prune
 * (see `prune`): a vote campaign drops a tag per server voted on, and drops older than every kept
 * answer tell nothing. Without this the map grew to the hard limit below in every cache (50,000
 * tags each, ~3 MB of heap apiece, through a benchmark's votes).
 */
const DROPPED_TAGS_PRUNE_FROM = 2_048;
/** Tags remembered as dropped before the oldest are forgotten at once, however recent the last prune. */
const DROPPED_TAGS_MAX = 50_000;

interface Entry<T> {
  at: number;
  /** The drop count when its load started: a tag dropped after that makes it stale. */
  seq: number;
  value: Promise<T>;
  /** The loaded value (undefined while loading), for callers that cannot wait (`peek`). */
  loaded?: T;
  /** Undefined while loading. */
  tags: readonly string[] | undefined;
  /** How it was loaded, so `refreshTags` can load it again in the background. */
  load: () => Promise<T>;
  tagsOf: (value: T) => readonly string[];
  /** Handed out since it was loaded: worth loading again when what it shows changes. */
  read: boolean;
  /** Being loaded again (it is answered meanwhile); `again`: changed once more since that load began. */
  refreshing: boolean;
  again: boolean;
}

/**
 * Cached answers by key, each loaded once (concurrent callers share the load) and kept for
 * `ttlMs` at most, with tags naming what they show (`server:12`, `sort:likes`…) so a change drops
 * only the answers it touches. Bounded in size; `ttlMs` 0 caches nothing.
 *
 * A drop is noted per tag (a sequence number), not looked up answer by answer: keeping an answer
 * costs no index of its tags, and a hit checks its few tags only when something was dropped since
 * it was made. Every uncached search keeps an answer naming 24 servers, so this is on the hot path.
 */
export class ResponseCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** The drop in which each tag was last dropped. */
  private readonly droppedAt = new Map<string, number>();
  private seq = 0;
  /** When drops were last pruned (ms). */
  private prunedAt = 0;
  /** Answers handed out from the cache (a load under way counts: its caller did not load). */
  hits = 0;
  /** Answers loaded afresh: missing, expired or dropped (with `ttlMs` 0, every one). For metrics. */
  misses = 0;
  /** Answers loaded again in the background by `refreshTags`. */
  refreshes = 0;

  /**
   * With `keepFromSecondAsk`, the keys asked for once lately: an answer is kept only when its key
   * was asked for before (within the last `maxEntries * 16` or so new keys). Searches are mostly
   * asked once: keeping each for a while only to evict it moved every answer into V8's old
   * generation and made a full collection a second (docs/decisions/028-search-index.md); a list
   * asked twice is the kind worth keeping.
   */
  private readonly askedOnce: AskedOnce | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    { keepFromSecondAsk = false }: { keepFromSecondAsk?: boolean } = {},
  ) {
    this.askedOnce = keepFromSecondAsk ? new AskedOnce(maxEntries * 16) : undefined;
  }

  /** The answer under `key`, loaded when missing or older than the TTL; `tagsOf` names what it shows. */
  get(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T> {
    if (this.ttlMs <= 0) {
      this.misses++;
      return load();
    }
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs && this.current(hit)) {
      this.hits++;
      hit.read = true;
      return hit.value;
    }
    this.misses++;
    if (hit) this.entries.delete(key);
    const keep = !this.askedOnce || hit !== undefined || this.askedOnce.askedBefore(key);
    const entry: Entry<T> = {
      at: now,
      seq: this.seq,
      value: undefined as unknown as Promise<T>,
      tags: undefined,
      load,
      tagsOf,
      read: false,
      refreshing: false,
      again: false,
    };
    entry.value = load().then(
      (value) => {
        if (this.entries.get(key) === entry) {
          // Asked once: it was there only for callers asking while it loaded.
          if (!keep) this.entries.delete(key);
          else {
            entry.loaded = value;
            entry.tags = tagsOf(value);
            // Something it shows was dropped while loading: answer this caller, keep nothing.
            if (!this.current(entry)) this.entries.delete(key);
            // Refreshed while loading: loaded again at once, answered meanwhile.
            else if (entry.again) this.refresh(key, entry);
          }
        }
        return value;
      },
      (err: unknown) => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw err;
      },
    );
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return entry.value;
  }

  /** The answer under `key` when it is loaded, kept and current; never loads. */
  peek(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit?.loaded === undefined || Date.now() - hit.at >= this.ttlMs || !this.current(hit)) return undefined;
    hit.read = true;
    return hit.loaded;
  }

  /**
   * Whether `key` has an answer kept, loaded and current: what `peek` would hand out, without
   * counting it as read. An answer loaded for one ask only (`keepFromSecondAsk`) is not kept.
   */
  holds(key: string): boolean {
    const hit = this.entries.get(key);
    return hit?.loaded !== undefined && Date.now() - hit.at < this.ttlMs && this.current(hit);
  }

  /**
   * Like `dropTags`, but an answer read since it was loaded is kept and answered until it has been
   * loaded again in the background (readers never wait for it); one nobody read is dropped. For
   * changes that may show a little late (decision 057): a busy list stays answered from memory.
   */
  refreshTags(tags: Iterable<string>): void {
    const changed = new Set(tags);
    for (const [key, entry] of this.entries) {
      // Still loading: it may have read the data from before the change, so it is loaded again once done.
      if (!entry.tags) {
        entry.again = true;
        continue;
      }
      if (!entry.tags.some((tag) => changed.has(tag))) continue;
      if (!entry.read) this.entries.delete(key);
      else if (entry.refreshing) entry.again = true;
      else this.refresh(key, entry);
    }
  }

  /**
   * Drops every answer carrying any of these tags. An answer still loading is not handed to later
   * callers (they load afresh), and is kept only if none of its tags was dropped.
   */
  dropTags(tags: Iterable<string>): void {
    this.seq++;
    for (const tag of tags) this.droppedAt.set(tag, this.seq);
    const size = this.droppedAt.size;
    if (size > DROPPED_TAGS_MAX || (size > DROPPED_TAGS_PRUNE_FROM && Date.now() - this.prunedAt >= this.ttlMs)) this.prune();
  }

  /** Drops one answer. */
  drop(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.droppedAt.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Tags remembered as dropped (tests). */
  get droppedTags(): number {
    return this.droppedAt.size;
  }

  /**
   * Loads a kept answer again and puts the new one in its place, unless it was dropped or replaced
   * meanwhile, or something the new one shows was dropped while it loaded. A failed load drops it.
   */
  private refresh(key: string, entry: Entry<T>): void {
    entry.refreshing = true;
    entry.again = false;
    this.refreshes++;
    const seq = this.seq;
    const at = Date.now();
    entry.load().then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        const fresh: Entry<T> = { ...entry, at, seq, value: Promise.resolve(value), loaded: value, tags: entry.tagsOf(value) };
        fresh.read = false;
        fresh.refreshing = false;
        fresh.again = false;
        if (!this.current(fresh)) {
          this.entries.delete(key);
          return;
        }
        this.entries.set(key, fresh);
        if (entry.again) this.refresh(key, fresh);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
  }

  /** Whether nothing the answer shows was dropped since its load started (a loading one: nothing at all). */
  private current(entry: Entry<T>): boolean {
    if (entry.seq === this.seq) return true;
    if (!entry.tags) return false;
    for (const tag of entry.tags) if ((this.droppedAt.get(tag) ?? -1) > entry.seq) return false;
    return true;
  }

  /**
   * Forgets drops no kept answer can be stale by: those at or before the oldest kept answer's
   * start. Expired answers go first, so this keeps at most a TTL's worth of drops; run at most once a
   * TTL, the map holds up to two TTLs' worth between prunes.
   */
  private prune(): void {
    const now = Date.now();
    this.prunedAt = now;
    let oldest = this.seq;
    for (const [key, entry] of this.entries) {
      if (now - entry.at >= this.ttlMs || !this.current(entry)) this.entries.delete(key);
      else oldest = Math.min(oldest, entry.seq);
    }
    for (const [tag, seq] of this.droppedAt) if (seq <= oldest) this.droppedAt.delete(tag);
    // Still most of the limit (a storm of changes within one TTL): start afresh rather than prune on every drop.
    if (this.droppedAt.size > DROPPED_TAGS_MAX / 2) this.clear();
  }
}
