/**
 * Eases from `from` to `to` over `durationMs` (cubic ease-out), calling `onFrame` with each whole
 * number; jumps straight there when motion is reduced. Returns a function that stops it.
 */
export function animateNumber(from: number, to: number, durationMs: number, onFrame: (value: number) => void): () => void {
  if (from === to) return () => {};
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
  let frame = 0;
  const start = performance.now();
  const tick = (now: number) => {
    const t = reduced ? 1 : Math.min(1, (now - start) / durationMs);
    const eased = 1 - Math.pow(1 - t, 3);
    onFrame(Math.round(from + (to - from) * eased));
    if (t < 1) frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(frame);
}
