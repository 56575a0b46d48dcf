// V8 flags the compiled server runs with, in production (`npm start`) and in the benchmark.
// The old generation may grow 25 % past what the last full collection left alive before the next
// one (V8's own factor is up to 4×): the default let the process reach 700 MB under load, and 40 %
// peaked just over 300 MB in the benchmark's vote phase (docs/decisions/040-heap-growth.md). The young
// generation's semi-spaces stop at 8 MB (V8 grows them to 16 under load): with the cards off the
// heap a scavenge is cheap, and the smaller nursery saves ~20 MB of resident memory.
export const SERVER_NODE_FLAGS = ['--heap-growing-percent=25', '--max-semi-space-size=8'];

/**
 * `SERVER_NODE_FLAGS` less those `NODE_OPTIONS` sets itself: node reads its command line after
 * `NODE_OPTIONS`, so the app's flag would otherwise win over the operator's (a 16 MB young
 * generation trades ~20 MB of memory for faster uncached pages, docs/decisions/067-memory-of-the-later-phases.md).
 * V8 spells a flag with dashes or underscores alike.
 */
export function serverNodeFlags(nodeOptions = process.env.NODE_OPTIONS ?? '') {
  const nameOf = (option) => option.split('=')[0].replace(/_/g, '-');
  const named = new Set(nodeOptions.split(/\s+/).filter(Boolean).map(nameOf));
  return SERVER_NODE_FLAGS.filter((flag) => !named.has(nameOf(flag)));
}

// glibc's malloc serves an allocation from its heap once one that size was freed (its mmap
// threshold rises up to 32 MB), and that heap cannot give back memory between live blocks: the
// card store's 1 MB chunks, let go as they empty, left holes there. Fixed at 512 KB, a chunk is
// its own mapping, returned when freed; the compressors' smaller buffers stay on the heap
// (docs/decisions/041-cards-off-heap.md). One malloc arena for every thread: the compression
// thread's own arena held ~8 MB more at its peak than sharing the main one does, and no thread here
// allocates enough for the shared arena's lock to show (docs/decisions/050-compression-thread.md).
// A caller's own setting wins.
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '524288', MALLOC_ARENA_MAX: '1' };
