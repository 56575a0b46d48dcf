import { extended } from '../../lib/extended';

/**
 * The first matches of recent searches in each sort's order, with their total: a later page or
 * another page size of the same search (the same words, filters and sort) is cut from them without
 * ANDing a bitset or cutting the order again. Valid while neither which servers match anything
 * (`matching`) nor the sort's order (`order`) has changed since: a vote that moves a server in
 * Most liked leaves the held prefixes of the newest servers be. Deep pages are cut as they come, and
 * a search is held from the second time it is asked.
 */

/** Matches held per search, at the least. */
export const PREFIX_MIN = 64;
/** No search holds more: a deeper page is cut without this. */
export const PREFIX_MAX = 1024;
/** Searches held (at most 4 KB each). */
const PREFIXES_MAX = 1024;
/** Searches remembered as asked once: a prefix is cut and held from the second ask. */
const ASKED_MAX = 4096;

/**
 * What a prefix was cut at: the index's count of changes to which servers match, of servers going
 * online or off (0 for a search that does not ask for online servers only), and the order's.
 */
export interface Versions {
  matching: number;
  online: number;
  order: number;
}

interface Prefix extends Versions {
  total: number;
  ids: Int32Array;
  /** Whether a page was ever cut from it: one that went stale unused is not held again at once. */
  served: boolean;
}

const sameVersions = (a: Versions, b: Versions): boolean => a.matching === b.matching && a.online === b.online && a.order === b.order;

export class PagePrefixes {
  private readonly held = new Map<string, Prefix>();
  private readonly asked = new Set<string>();

  /**
   * Whether a search not held is worth holding: asked before. Cutting a prefix walks further than
   * a page does, so a search asked once (most are) cuts only its page.
   */
  askedBefore(key: string, versions: Versions): boolean {
    const stale = this.held.get(key);
    if (stale && !stale.served && !sameVersions(stale, versions)) {
      // Changed before it was used again (an order that moves with every poll): asked twice more before it is held again.
      this.held.delete(key);
      this.asked.delete(key);
    }
    if (this.asked.has(key)) return true;
    if (this.asked.size >= ASKED_MAX) this.asked.delete(this.asked.values().next().value as string);
    this.asked.add(key);
    return false;
  }

  /** The page of a held search at these versions and its total, when its prefix reaches that far; else undefined. */
  page(key: string, versions: Versions, offset: number, limit: number): { ids: number[]; total: number } | undefined {
    const prefix = this.held.get(key);
    if (!prefix || !sameVersions(prefix, versions)) return undefined;
    const end = Math.min(offset + limit, prefix.total);
    if (end > prefix.ids.length) return undefined;
    prefix.served = true;
    const ids: number[] = [];
    for (let i = offset; i < end; i++) ids.push(prefix.ids[i]!);
    return { ids, total: prefix.total };
  }

  /** Holds the first `ids` of a search (all of them when fewer than asked for) and its total. */
  hold(key: string, versions: Versions, total: number, ids: readonly number[]): void {
    // Held again: the newest, so a search in use goes after the ones asked once.
    this.held.delete(key);
    if (this.held.size >= PREFIXES_MAX) this.held.delete(this.held.keys().next().value as string);
    this.held.set(key, extended(versions, { total, ids: Int32Array.from(ids), served: false }));
  }
}

/**
 * How many matches to cut when a page needing `need` is to be held: twice that (the next page or
 * two, and other page sizes, come from it), or undefined for a page too deep to hold.
 */
export function prefixLength(need: number): number | undefined {
  return need > PREFIX_MAX ? undefined : Math.min(PREFIX_MAX, Math.max(2 * need, PREFIX_MIN));
}

/** What a held prefix is found by: the sort, whether only online servers, the filters and the words, in any order. */
export function prefixKey(sort: string, live: boolean, filterIds: number[], words: string[]): string {
  const filters = filterIds.length > 1 ? [...filterIds].sort((a, b) => a - b) : filterIds;
  const terms = words.length > 1 ? [...words].sort() : words;
  return `${sort}|${live ? 1 : 0}|${filters.join(',')}|${terms.join(' ')}`;
}
