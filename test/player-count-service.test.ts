import { describe, expect, it } from 'vitest';
import { playerCountService } from '../src/server/modules/player-count';

/** A total query the test finishes by hand, in whatever order it likes. */
function deferredTotals() {
  const calls: Array<{ resolve: (n: number) => void; reject: (e: Error) => void }> = [];
  const repo = {
    totalPlayers: () =>
      new Promise<number>((resolve, reject) => {
        calls.push({ resolve, reject });
      }),
  };
  return { repo, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('live player total refresh', () => {
  it('runs one query at a time, and once more after it for every refresh asked meanwhile', async () => {
    const { repo, calls } = deferredTotals();
    const service = playerCountService(repo, () => {}, 0);
    const first = service.refresh();
    const waiting = [service.refresh(), service.refresh(), service.refresh()];
    await tick();
    expect(calls).toHaveLength(1);

    calls[0]!.resolve(10);
    expect(await first).toBe(10);
    await tick();
    // The three asked while the first ran share one more query, started after it.
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(25);
    expect(await Promise.all(waiting)).toEqual([25, 25, 25]);
    expect(service.count).toBe(25);
    service.stop();
  });

  it('never leaves an older total in place of a newer one', async () => {
    // Each query sees the total as it was when it started, and the newest one finishes first
    // whenever two are running (a slow plan, a busy pool).
    let total = 5;
    const pending: Array<() => void> = [];
    const repo = {
      totalPlayers: () => {
        const seen = total;
        return new Promise<number>((resolve) => pending.push(() => resolve(seen)));
      },
    };
    const service = playerCountService(repo, () => {}, 0);
    const before = service.refresh();
    total = 40;
    const after = service.refresh();
    const settled = Promise.all([before, after]);
    for (let round = 0; round < 5; round++) {
      await tick();
      while (pending.length > 0) pending.pop()!();
    }
    await settled;
    expect(service.count).toBe(40);
    service.stop();
  });

  it('still runs the queued refresh when the running one fails', async () => {
    const { repo, calls } = deferredTotals();
    const service = playerCountService(repo, () => {}, 0);
    const failing = service.refresh();
    const queued = service.refresh();
    await tick();
    calls[0]!.reject(new Error('database went away'));
    await expect(failing).rejects.toThrow('database went away');
    await tick();
    calls[1]!.resolve(7);
    expect(await queued).toBe(7);
    expect(service.count).toBe(7);
    service.stop();
  });

  it('tells sockets the newest total once a burst of refreshes settles', async () => {
    const { repo, calls } = deferredTotals();
    const heard: number[] = [];
    const service = playerCountService(repo, (n) => heard.push(n), 0);
    const all = [service.refresh(), service.refresh(), service.refresh()];
    await tick();
    calls[0]!.resolve(3);
    await tick();
    calls[1]!.resolve(9);
    await Promise.all(all);
    await new Promise((r) => setTimeout(r, 10));
    expect(heard.at(-1)).toBe(9);
    expect(heard.length).toBeLessThanOrEqual(2);
    service.stop();
  });
});
