import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CompressThread, QUICK_BROTLI_PARAMS, THREAD_SOURCE, type JobSource } from './compress-thread';
import { QuickBrotli } from './quick-brotli';

const started: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.stop()));
});

function thread(options: ConstructorParameters<typeof CompressThread>[0] = {}, onExit?: () => void): CompressThread {
  const made = new CompressThread(options, onExit);
  started.push(made);
  return made;
}

/** A list answer's JSON, different for each `n`, as a source written into the slot. */
function answer(n: number, cards = 30): { json: Buffer; source: JobSource } {
  const rows = Array.from({ length: cards }, (_, i) => ({
    id: String(n * 1000 + i),
    name: `Server ${n}-${i} Roleplay`,
    bio: `A roleplay community number ${(n * 7919 + i) % 104729}. Join us on Discord.`,
    filters: ['Serious', 'Economy', `Tag${i % 7}`],
    likes: (n * 31 + i * 17) % 5000,
  }));
  const json = Buffer.from(JSON.stringify(rows));
  return { json, source: { byteLength: json.length, writeTo: (out) => void json.copy(out) } };
}

const onTheLoop = (json: Buffer) => zlib.brotliCompressSync(json, { chunkSize: 4095, params: QUICK_BROTLI_PARAMS });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const until = async (done: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return done();
};

/** Submits `count` answers in one turn and keeps the event loop busy `busyMs`, as a turn of requests does. */
function busyTurn(t: CompressThread, first: number, count: number, busyMs = 20) {
  const jobs = Array.from({ length: count }, (_, i) => {
    const { json, source } = answer(first + i);
    return { json, soon: t.submit(source) };
  });
  const end = performance.now() + busyMs;
  while (performance.now() < end);
  return jobs;
}

describe('the compression thread', () => {
  it('answers every job of a turn with the very bytes the event loop makes, shared between the thread and the loop', async () => {
    const t = thread();
    let n = 0;
    // The thread boots in the background: busy turns go on until it has done some of the work, then
    // turns that end at once, whose jobs the thread has not reached the loop compresses itself (on
    // a quiet machine the thread did all 40 jobs of every busy turn, and the loop none).
    for (let turn = 0; turn < 200 && (t.byThread === 0 || t.byLoop === 0); turn++) {
      const jobs = busyTurn(t, n, 40, t.byThread === 0 ? 20 : 0);
      n += 40;
      const answers = await Promise.all(jobs.map((j) => j.soon!));
      answers.forEach((bytes, i) => {
        expect(bytes.equals(onTheLoop(jobs[i]!.json))).toBe(true);
        expect(zlib.brotliDecompressSync(bytes).equals(jobs[i]!.json)).toBe(true);
      });
    }
    expect(t.byThread).toBeGreaterThan(0);
    expect(t.byLoop).toBeGreaterThan(0);
  });

  it('leaves to the caller what it cannot take: an answer too big, an empty one, or more than its slots in one turn', async () => {
    const t = thread({ slots: 4, inputBytes: 8 * 1024 });
    expect(t.submit(answer(1, 200).source)).toBeUndefined();
    expect(t.submit({ byteLength: 0, writeTo: () => {} })).toBeUndefined();
    const jobs = Array.from({ length: 6 }, (_, i) => answer(i, 5));
    const soon = jobs.map((j) => t.submit(j.source));
    expect(soon.filter(Boolean)).toHaveLength(4);
    expect(soon.slice(4)).toEqual([undefined, undefined]);
    const bytes = await Promise.all(soon.slice(0, 4));
    bytes.forEach((b, i) => expect(b!.equals(onTheLoop(jobs[i]!.json))).toBe(true));
    // Every slot is free again in the next turn.
    await nextTurn();
    expect(jobs.map((j) => t.submit(j.source)).filter(Boolean)).toHaveLength(4);
  });

  it('a thread that never starts costs nothing but time: every answer is made on the event loop', async () => {
    let exited = 0;
    const t = thread({ source: 'throw new Error("no thread here")' }, () => exited++);
    const jobs = busyTurn(t, 0, 10);
    const answers = await Promise.all(jobs.map((j) => j.soon!));
    answers.forEach((b, i) => expect(b.equals(onTheLoop(jobs[i]!.json))).toBe(true));
    expect(t.byThread).toBe(0);
    expect(await until(() => exited === 1)).toBe(true);
    expect(t.alive).toBe(false);
    expect(t.submit(answer(1).source)).toBeUndefined();
  });

  it('a thread that takes jobs and stops answering is waited for briefly, done without, and retired once it holds several slots', async () => {
    // Takes every pending job and never finishes one.
    const stuck = `
      const { workerData } = require('node:worker_threads');
      const ctl = new Int32Array(workerData.control);
      for (;;) for (let s = 0; s < workerData.slots; s++) Atomics.compareExchange(ctl, 4 + 3 * s, 1, 2);
    `;
    let exited = 0;
    const t = thread({ source: stuck, slots: 6, waitMs: 1 }, () => exited++);
    for (let turn = 0; turn < 500 && t.alive; turn++) {
      const { json, source } = answer(turn);
      const soon = t.submit(source);
      expect(soon).toBeDefined();
      const end = performance.now() + 5;
      while (performance.now() < end);
      // Every job is answered, by the event loop, while slots the thread holds stay out of use.
      expect((await soon!).equals(onTheLoop(json))).toBe(true);
    }
    expect(t.alive).toBe(false);
    expect(exited).toBe(1);
    expect(t.byThread).toBe(0);
    expect(t.submit(answer(1).source)).toBeUndefined();
  });

  it('runs the real thread code from its exported source', () => {
    // The code is eval'd in the worker: it must not depend on anything the bundle renames.
    expect(() => new Function('require', THREAD_SOURCE)).not.toThrow();
  });
});

describe('quick brotli: the thread as answers use it', () => {
  it('starts a thread only for busy turns, stops it when they stop, and gives up after repeated failures', async () => {
    const gaveUp: string[] = [];
    const quick = new QuickBrotli({ busyTurn: 5, idleMs: 50 }, () => gaveUp.push('gave up'));
    started.push(quick);
    // A quiet turn: no thread, the caller compresses.
    expect(quick.submit(answer(1).source)).toBeUndefined();
    expect(quick.current).toBeUndefined();
    await nextTurn();
    const soon = Array.from({ length: 6 }, (_, i) => quick.submit(answer(i).source));
    expect(soon.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(quick.current).toBeDefined();
    expect(soon[5]).toBeDefined();
    await Promise.all(soon.filter(Boolean));
    // No busy turn for two idle periods: stopped.
    expect(await until(() => quick.current === undefined)).toBe(true);

    const failing = new QuickBrotli({ busyTurn: 1, failuresMax: 2, source: 'throw new Error("boom")' }, () => gaveUp.push('gave up'));
    started.push(failing);
    for (let i = 0; i < 2; i++) {
      await Promise.all([failing.submit(answer(i).source)].filter(Boolean));
      expect(await until(() => failing.current === undefined)).toBe(true);
      await nextTurn();
    }
    expect(gaveUp).toEqual(['gave up']);
    expect(failing.submit(answer(5).source)).toBeUndefined();
    expect(failing.current).toBeUndefined();
  });
});
