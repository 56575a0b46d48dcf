import type { ReactNode } from 'react';
import { useT } from '../i18n/use-t';
import type { NavAccountFor } from './nav-account';
import { NavBar } from './nav-bar';
import { SiteFooter } from './site-footer';

/**
 * The frame around every page: skip link, navigation, an optional site-wide banner, the content,
 * the footer. The app's layout and the landing page rendered ahead of time both use it.
 */
export function PageFrame({
  banner,
  children,
  after,
  account = 'device',
}: {
  banner?: ReactNode;
  children: ReactNode;
  after?: ReactNode;
  /** Whom Login/Register or the signed-in user's name and Logout are drawn for. */
  account?: NavAccountFor;
}) {
  const { t } = useT();
  return (
    <div className="glow-bg flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-3 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-3 focus:py-2 focus:text-ink-950"
      >
        {t('common.frame.skip')}
      </a>
      <NavBar account={account} />
      {banner}
      {/* At least a screen tall: the footer starts below the fold, so a page growing as its data
          arrives does not push a visible footer down (a layout shift). */}
      <main id="main" className="flex min-h-dvh flex-1 flex-col">
        {children}
      </main>
      <SiteFooter />
      {after}
    </div>
  );
}
