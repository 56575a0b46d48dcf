import { useEffect, useRef, useState } from 'react';
import { animateNumber } from '../animate-number';

/** Eases from the shown value to `target` over `durationMs`; jumps straight there when motion is reduced. */
export function useAnimatedNumber(target: number, durationMs: number, initial: number): number {
  const [value, setValue] = useState(initial);
  const shown = useRef(initial);

  useEffect(
    () =>
      animateNumber(shown.current, target, durationMs, (next) => {
        shown.current = next;
        setValue(next);
      }),
    [target, durationMs],
  );

  return value;
}
