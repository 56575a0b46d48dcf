import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useSession } from '../lib/session';

/** What a redirect tells the page it lands on: why the visitor is here and not where they asked. */
export interface RouteNoticeState {
  routeNotice: string;
}

const isNotice = (state: unknown): state is RouteNoticeState =>
  typeof state === 'object' && state !== null && typeof (state as { routeNotice?: unknown }).routeNotice === 'string';

/**
 * The notice of a redirect (an unknown path, a page for another role): shown once at the top of
 * the page it landed on, dismissible, and with a way to log in for a visitor who is logged out.
 */
export function RouteNotice() {
  const location = useLocation();
  const session = useSession();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!isNotice(location.state) || dismissed === location.key) return null;
  return (
    <div role="status" data-testid="route-notice" className="mx-auto mt-4 w-full max-w-7xl px-4">
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-2 text-sm text-amber-100">
        <p className="flex-1">{location.state.routeNotice}</p>
        {session ? null : (
          <Link to="/login" className="inline-flex min-h-11 items-center font-semibold text-brand-300 hover:underline">
            Log in
          </Link>
        )}
        <button
          type="button"
          onClick={() => setDismissed(location.key)}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-amber-100 hover:bg-white/10"
          aria-label="Dismiss"
        >
          ×
        </button>
      </div>
    </div>
  );
}
