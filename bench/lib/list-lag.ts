/**
 * How far a list is behind the votes' own answers. A like's answer is its server's card with the
 * counters the vote wrote, so once it is answered the database holds at least those likes: a list
 * asked for after that showing fewer is behind, by at least the time since that answer. No read of
 * the database is needed (the embedded one serves only the app while it runs), and a vote held
 * back by the fraud rules, whose answer shows the likes unchanged, is never taken for lag.
 */
export class ListLag {
  /** Per server: answer times and the highest likes answered so far (both in answer order). */
  private readonly answered = new Map<number, { at: number[]; likes: number[] }>();
  private readonly lags: number[] = [];
  /** Samples that could not be compared (an error, an answer outside 2xx). */
  failed = 0;
  /** Samples showing a server some vote had been answered on before (the others prove nothing). */
  private compared = 0;

  /** A like on `serverId` answered at `at` (ms, this process's clock) with the server's `likes`. */
  vote(serverId: number, likes: number, at: number): void {
    let seen = this.answered.get(serverId);
    if (!seen) this.answered.set(serverId, (seen = { at: [], likes: [] }));
    seen.at.push(at);
    seen.likes.push(Math.max(likes, seen.likes.at(-1) ?? 0));
  }

  /**
   * The list as asked for at `askedAt`: for each server on it, the earliest answer before then with
   * more likes than it shows; the list is behind by the time since the earliest of those (0 when
   * none). Answers that lag, and keeps it.
   */
  sample(askedAt: number, shown: ReadonlyArray<{ id: number; likes: number }>): number {
    let lag = 0;
    let watched = false;
    for (const { id, likes } of shown) {
      const seen = this.answered.get(id);
      if (!seen || !(seen.at[0]! < askedAt)) continue;
      watched = true;
      // The first answer with more likes than shown (the running maximum is sorted).
      let lo = 0;
      let hi = seen.likes.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (seen.likes[mid]! > likes) hi = mid;
        else lo = mid + 1;
      }
      if (lo < seen.likes.length && seen.at[lo]! < askedAt) lag = Math.max(lag, askedAt - seen.at[lo]!);
    }
    this.lags.push(lag);
    if (watched) this.compared++;
    return lag;
  }

  /** Samples taken, the largest and 99th-percentile lag, and how many were over `boundMs`. */
  summary(boundMs: number): {
    samples: number;
    compared: number;
    failed: number;
    maxMs: number;
    p99Ms: number;
    over: number;
    watched: number;
  } {
    const sorted = [...this.lags].sort((a, b) => a - b);
    return {
      samples: sorted.length,
      compared: this.compared,
      failed: this.failed,
      maxMs: sorted.at(-1) ?? 0,
      p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
      over: sorted.filter((l) => l > boundMs).length,
      watched: this.answered.size,
    };
  }
}
