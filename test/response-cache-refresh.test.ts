import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../src/server/lib/response-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A load answering the next of `values` on each call, each call's answer released by hand. */
function manualLoads() {
  const calls: Array<ReturnType<typeof deferred<string>>> = [];
  return {
    calls,
    load: () => {
      const call = deferred<string>();
      calls.push(call);
      return call.promise;
    },
  };
}

const tagsOf = () => ['sort:likes', 'server:1'];
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('answers loaded again in the background (refreshTags)', () => {
  it('keeps answering a read answer while it is loaded again, then answers the new one', async () => {
    const cache = new ResponseCache<string>(60_000);
    const loads = manualLoads();
    const first = cache.get('top', loads.load, tagsOf);
    loads.calls[0]!.resolve('before');
    expect(await first).toBe('before');
    // Read since it was loaded: worth loading again.
    expect(cache.peek('top')).toBe('before');

    cache.refreshTags(['server:1']);
    expect(loads.calls).toHaveLength(2);
    // Meanwhile the held answer is still given, by `get` and `peek`, and nobody waits.
    expect(await cache.get('top', loads.load, tagsOf)).toBe('before');
    expect(cache.peek('top')).toBe('before');
    expect(loads.calls).toHaveLength(2);

    loads.calls[1]!.resolve('after');
    await flush();
    expect(cache.peek('top')).toBe('after');
    expect(cache.refreshes).toBe(1);
  });

  it('drops an answer nobody read since it was loaded, and leaves answers the change does not show', async () => {
    const cache = new ResponseCache<string>(60_000);
    await cache.get('unread', () => Promise.resolve('old'), tagsOf);
    await cache.get(
      'other',
      () => Promise.resolve('kept'),
      () => ['sort:new'],
    );
    cache.refreshTags(['sort:likes']);
    expect(cache.peek('unread')).toBeUndefined();
    expect(cache.peek('other')).toBe('kept');
    expect(cache.refreshes).toBe(0);
  });

  it('loads again once more when it changes again during a load, and never keeps a load a drop made stale', async () => {
    const cache = new ResponseCache<string>(60_000);
    const loads = manualLoads();
    const first = cache.get('top', loads.load, tagsOf);
    loads.calls[0]!.resolve('v1');
    await first;
    cache.peek('top');
    cache.refreshTags(['sort:likes']);
    // Changed again while the new load runs: one more load after it, not two at once.
    cache.refreshTags(['sort:likes']);
    expect(loads.calls).toHaveLength(2);
    loads.calls[1]!.resolve('v2');
    await flush();
    expect(cache.peek('top')).toBe('v2');
    expect(loads.calls).toHaveLength(3);

    // A drop (an edit) while that load runs: its answer may predate the edit, so it is not kept.
    cache.dropTags(['server:1']);
    loads.calls[2]!.resolve('v3');
    await flush();
    expect(cache.peek('top')).toBeUndefined();
  });

  it('drops the answer when the new load fails', async () => {
    const cache = new ResponseCache<string>(60_000);
    const loads = manualLoads();
    const first = cache.get('top', loads.load, tagsOf);
    loads.calls[0]!.resolve('before');
    await first;
    cache.peek('top');
    cache.refreshTags(['server:1']);
    loads.calls[1]!.reject(new Error('database gone'));
    await flush();
    expect(cache.peek('top')).toBeUndefined();
  });
});
