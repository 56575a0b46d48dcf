import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * When a page the server rendered was drawn there (ms since the epoch), or `null`: the clock its
 * first render in the browser reads, so a text such as "checked 2 minutes ago" is drawn the same
 * both sides and hydration keeps the markup. The HTML may be served from a cache minutes after it
 * was rendered; with the browser's clock such a text would differ and React would draw the whole
 * page again.
 */
const RenderedAt = createContext<number | null>(null);

export function RenderedAtProvider({ at, children }: { at: number | null; children: ReactNode }) {
  return <RenderedAt.Provider value={at}>{children}</RenderedAt.Provider>;
}

/**
 * The clock a component shows times from, read again every `everyMs` and when the returned
 * function is called. While the server renders a page and the app hydrates it, the time the page
 * was rendered at; the browser's right after.
 */
export function useNow(everyMs: number): [now: number, readAgain: () => void] {
  const renderedAt = useContext(RenderedAt);
  const hydrated = useHydrated();
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  const readAgain = useCallback(() => setNow(Date.now()), []);
  // Hydrated is false on the server and while hydrating, and turns true in the render right after.
  return [hydrated ? now : (renderedAt ?? now), readAgain];
}
