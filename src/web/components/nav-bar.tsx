import { useState } from 'react';
import { NavLink } from 'react-router';
import { useT } from '../i18n/use-t';
import { useSession } from '../lib/session';
import { Logo } from './logo';
import { NavAccount, type NavAccountFor } from './nav-account';
import { MENU_ICON_PATH } from './menu-icon';
import { navItemsFor } from './nav-items';

/** Role-based navigation (each role sees only the pages it may open): a row of links on desktop, a collapsible menu on phones. */
export function NavBar({ account = 'device' }: { account?: NavAccountFor }) {
  const { t } = useT();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const items = navItemsFor(session?.user.role ?? null);

  // A tap on a link navigates; the phone menu should then get out of the way.
  const close = () => setOpen(false);

  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-ink-950/85 backdrop-blur">
      <nav aria-label={t('common.nav.main')} className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <Logo />
        <button
          type="button"
          className="rounded-lg p-2 text-slate-200 hover:bg-white/10 lg:hidden"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="sr-only">{open ? t('common.nav.closeMenu') : t('common.nav.openMenu')}</span>
          <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
            <path d={open ? MENU_ICON_PATH.open : MENU_ICON_PATH.closed} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <div
          id="main-menu"
          className={`${open ? 'flex' : 'hidden'} w-full flex-col gap-3 pb-2 lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:items-center lg:justify-between lg:pb-0 lg:pl-6`}
        >
          <ul className="flex flex-col gap-1 lg:flex-row lg:flex-wrap">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === '/admin' || item.to === '/dashboard'}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-3 text-sm lg:py-2 font-medium transition ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`
                  }
                  onClick={close}
                >
                  {t(item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
          <NavAccount drawnFor={account} onNavigate={close} />
        </div>
      </nav>
    </header>
  );
}
