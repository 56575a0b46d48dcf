import { useEffect, useRef, useState } from 'react';

/** Eases from the shown value to `target` over `durationMs`; jumps straight there when motion is reduced. */
export function useAnimatedNumber(target: number, durationMs: number, initial: number): number {
  const [value, setValue] = useState(initial);
  const shown = useRef(initial);

  useEffect(() => {
    const from = shown.current;
    if (from === target) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      const t = reduced ? 1 : Math.min(1, (now - start) / durationMs);
      const eased = 1 - Math.pow(1 - t, 3);
      const next = Math.round(from + (target - from) * eased);
      shown.current = next;
      setValue(next);
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [target, durationMs]);

  return value;
}
