import { afterEach, describe, expect, it, vi } from 'vitest';
import { batcher } from './batcher';

/** A `run` whose calls stay open until the test lets them end; it records each call's items. */
function gatedRun<I>(answer: (item: I) => unknown = (item) => item) {
  const calls: I[][] = [];
  const gates: Array<() => void> = [];
  const run = async (items: I[]) => {
    calls.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((item) => answer(item));
  };
  const openNext = async () => {
    gates.shift()!();
    // Let the settled batch hand out its answers and start the next one.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, calls, openNext };
}

/** One turn of the event loop: what was added in it has gone out as a batch. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batcher', () => {
  it('sends the calls of one turn together, and those that queue behind a running batch in the next', async () => {
    const gated = gatedRun<number>((n) => n * 10);
    const b = batcher(gated.run);
    const answers = [b.add(1), b.add(2)];
    expect(gated.calls).toEqual([]);
    await turn();
    expect(gated.calls).toEqual([[1, 2]]);
    answers.push(b.add(3), b.add(4), b.add(5));
    await turn();
    expect(b.waiting).toBe(3);
    await gated.openNext();
    expect(gated.calls).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await gated.openNext();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it('never puts more than maxBatch items in one call', async () => {
    const gated = gatedRun<number>();
    const b = batcher(gated.run, { maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => b.add(n));
    await turn();
    await gated.openNext();
    await gated.openNext();
    await gated.openNext();
    expect(gated.calls).toEqual([[1, 2], [3, 4], [5]]);
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps items sharing a key out of one batch, in their order', async () => {
    const gated = gatedRun<{ id: number; key: string }>((item) => item.id);
    const b = batcher(gated.run, { keys: (item) => [item.key] });
    const items = [
      { id: 1, key: 'a' },
      { id: 2, key: 'a' },
      { id: 3, key: 'b' },
      { id: 4, key: 'a' },
      { id: 5, key: 'c' },
    ];
    const answers = items.map((item) => b.add(item));
    await turn();
    await gated.openNext();
    await gated.openNext();
    await gated.openNext();
    expect(gated.calls.map((call) => call.map((item) => item.id))).toEqual([[1, 3, 5], [2], [4]]);
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5]);
  });

  it('with several batches in flight, holds back an item whose key a running batch holds', async () => {
    const gated = gatedRun<{ id: number; key: string }>((item) => item.id);
    const b = batcher(gated.run, { maxInFlight: 2, keys: (item) => [item.key] });
    const first = b.add({ id: 1, key: 'a' });
    await turn();
    const second = b.add({ id: 2, key: 'a' });
    const third = b.add({ id: 3, key: 'b' });
    await turn();
    // The second slot takes the item with a free key; the one sharing the running key waits.
    expect(gated.calls.map((call) => call.map((item) => item.id))).toEqual([[1], [3]]);
    await gated.openNext();
    expect(gated.calls.map((call) => call.map((item) => item.id))).toEqual([[1], [3], [2]]);
    await gated.openNext();
    await gated.openNext();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 3]);
  });

  it('when a batch fails with an error of one item’s data, runs its items alone so only the bad one fails', async () => {
    const calls: number[][] = [];
    const b = batcher(
      async (items: number[]) => {
        calls.push(items);
        if (items.includes(13)) throw new Error('unlucky');
        return items.map((n) => -n);
      },
      { splitOn: (error) => (error as Error).message === 'unlucky' },
    );
    const answers = [1, 13, 4].map((n) =>
      b.add(n).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    expect(await Promise.all(answers)).toEqual([{ value: -1 }, { error: 'unlucky' }, { value: -4 }]);
    expect(calls).toEqual([[1, 13, 4], [1], [13], [4]]);
  });

  it('fails every item at once, tried once, on any other error (no database, a timeout, a result that does not fit)', async () => {
    const calls: number[][] = [];
    const b = batcher(
      async (items: number[]) => {
        calls.push(items);
        // Several items get one result: the batch cannot say whose it is (and may have been written).
        return items.length > 1 ? [0] : items;
      },
      { splitOn: () => false },
    );
    const answers = await Promise.allSettled([7, 8, 9].map((n) => b.add(n)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(calls).toEqual([[7, 8, 9]]);
    // The next batch runs as usual.
    expect(await b.add(10)).toBe(10);
  });

  describe('gathering under load', () => {
    // The gathering wait is a timer measured from the last batch's start: both are faked, the
    // event loop's turns (setImmediate) are not.
    const gathering = (items: number) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const gated = gatedRun<number>();
      return { gated, b: batcher(gated.run, { gather: { ms: 15, items } }) };
    };
    afterEach(() => {
      vi.useRealTimers();
    });

    it('holds a small batch that queued behind a running one until the gather time has passed since that one began', async () => {
      const { gated, b } = gathering(4);
      const answers = [b.add(1)];
      await turn();
      // Nothing was waiting behind a batch: the first goes at once.
      expect(gated.calls).toEqual([[1]]);
      answers.push(b.add(2), b.add(3));
      await turn();
      vi.advanceTimersByTime(5);
      await gated.openNext();
      // Two arrived while the first ran: they wait for more until 15 ms after it began.
      expect(gated.calls).toEqual([[1]]);
      answers.push(b.add(4));
      await turn();
      vi.advanceTimersByTime(9);
      await turn();
      expect(gated.calls).toEqual([[1]]);
      vi.advanceTimersByTime(1);
      await turn();
      expect(gated.calls).toEqual([[1], [2, 3, 4]]);
      await gated.openNext();
      expect(await Promise.all(answers)).toEqual([1, 2, 3, 4]);
      // Nothing queued behind that one: the next item, however soon, goes at once.
      const later = b.add(5);
      await turn();
      expect(gated.calls).toEqual([[1], [2, 3, 4], [5]]);
      await gated.openNext();
      expect(await later).toBe(5);
    });

    it('sends a gathered batch at once when it reaches the gather size', async () => {
      const { gated, b } = gathering(3);
      const answers = [b.add(1)];
      await turn();
      answers.push(b.add(2));
      await turn();
      await gated.openNext();
      expect(gated.calls).toEqual([[1]]);
      answers.push(b.add(3), b.add(4));
      await turn();
      // No time has passed: three waiting is enough.
      expect(gated.calls).toEqual([[1], [2, 3, 4]]);
      await gated.openNext();
      expect(await Promise.all(answers)).toEqual([1, 2, 3, 4]);
    });

    it('never holds a caller who waits for each answer before sending the next', async () => {
      const { gated, b } = gathering(8);
      for (const n of [1, 2, 3, 4, 5]) {
        const answer = b.add(n);
        await turn();
        expect(vi.getTimerCount()).toBe(0);
        await gated.openNext();
        expect(await answer).toBe(n);
      }
      expect(gated.calls).toEqual([[1], [2], [3], [4], [5]]);
    });
  });
});
