import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { MessageId } from '../i18n/catalogs/index';
import { useT } from '../i18n/use-t';
import { useSession } from '../lib/session';

/**
 * What a redirect tells the page it lands on: why the visitor is here and not where they asked. It
 * carries the message's id and the path asked for, so the notice is drawn in the page's language.
 */
export interface RouteNoticeState {
  routeNotice: { id: MessageId; path: string };
}

const isNotice = (state: unknown): state is RouteNoticeState => {
  if (typeof state !== 'object' || state === null) return false;
  const notice = (state as { routeNotice?: unknown }).routeNotice;
  return (
    typeof notice === 'object' &&
    notice !== null &&
    typeof (notice as { id?: unknown }).id === 'string' &&
    typeof (notice as { path?: unknown }).path === 'string'
  );
};

/**
 * The notice of a redirect (an unknown path, a page for another role): shown once at the top of
 * the page it landed on, dismissible, and with a way to log in for a visitor who is logged out.
 */
export function RouteNotice() {
  const { t } = useT();
  const location = useLocation();
  const session = useSession();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!isNotice(location.state) || dismissed === location.key) return null;
  const { id, path } = location.state.routeNotice;
  return (
    <div role="status" data-testid="route-notice" className="mx-auto mt-4 w-full max-w-7xl px-4">
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-2 text-sm text-amber-100">
        <p className="flex-1">{t(id, { path })}</p>
        {session ? null : (
          <Link to="/login" className="inline-flex min-h-11 items-center font-semibold text-brand-300 hover:underline">
            {t('common.routeNotice.login')}
          </Link>
        )}
        <button
          type="button"
          onClick={() => setDismissed(location.key)}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-amber-100 hover:bg-white/10"
          aria-label={t('common.routeNotice.dismiss')}
        >
          ×
        </button>
      </div>
    </div>
  );
}
