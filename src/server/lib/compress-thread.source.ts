// The slot states and control words below match the constants in compress-thread.ts.

/**
 * The thread's loop, as source: it runs in a worker of its own (eval'd, so no file to ship or
 * bundle). It sleeps on the published count and takes pending jobs by compare-and-swap, from the
 * first slot up; the event loop takes what is left from the last slot down.
 */
export const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { control, data, slots, inputBytes, outputBytes, options } = workerData;
const ctl = new Int32Array(control);
const bytes = Buffer.from(data);
const stride = inputBytes + outputBytes;
const [FREE, PENDING, TAKEN, DONE, FAILED, ABANDONED] = [0, 1, 2, 3, 4, 5];
const [PUBLISHED, SLEEPING, STOP, HEAD] = [0, 1, 2, 4];
const state = (s) => HEAD + 3 * s;
const inputLength = (s) => HEAD + 3 * s + 1;
const outputLength = (s) => HEAD + 3 * s + 2;
let seen = 0;
while (Atomics.load(ctl, STOP) === 0) {
  const published = Atomics.load(ctl, PUBLISHED);
  if (published === seen) {
    Atomics.store(ctl, SLEEPING, 1);
    Atomics.wait(ctl, PUBLISHED, seen, 1000);
    Atomics.store(ctl, SLEEPING, 0);
    continue;
  }
  seen = published;
  for (let s = 0; s < slots; s++) {
    if (Atomics.compareExchange(ctl, state(s), PENDING, TAKEN) !== PENDING) continue;
    const at = s * stride;
    let next = FAILED;
    try {
      const out = zlib.brotliCompressSync(bytes.subarray(at, at + Atomics.load(ctl, inputLength(s))), options);
      if (out.length <= outputBytes) {
        out.copy(bytes, at + inputBytes);
        Atomics.store(ctl, outputLength(s), out.length);
        next = DONE;
      }
    } catch {}
    if (Atomics.compareExchange(ctl, state(s), TAKEN, next) === ABANDONED) Atomics.store(ctl, state(s), FREE);
    Atomics.notify(ctl, state(s));
  }
}
`;
