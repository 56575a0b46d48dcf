import { useState } from 'react';
import { NavLink } from 'react-router';
import { useSession } from '../lib/session';
import { useLogout } from '../lib/use-logout';
import { Logo } from './logo';
import { ButtonLink, buttonClass } from './button';
import { MENU_ICON_PATH } from './menu-icon';
import { navItemsFor } from './nav-items';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-3 text-sm lg:py-2 font-medium transition ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`;

/** Role-based navigation (each role sees only the pages it may open): a row of links on desktop, a collapsible menu on phones. */
export function NavBar({ withAccount = true }: { withAccount?: boolean }) {
  const session = useSession();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const items = navItemsFor(session?.user.role ?? null);

  // A tap on a link navigates; the phone menu should then get out of the way.
  const close = () => setOpen(false);

  const account = session ? (
    <button
      type="button"
      onClick={() => {
        close();
        logout();
      }}
      className={buttonClass('secondary', 'w-full lg:w-auto')}
    >
      Logout
    </button>
  ) : (
    <>
      <ButtonLink to="/login" variant="ghost" className="w-full lg:w-auto" onClick={close}>
        Login
      </ButtonLink>
      <ButtonLink to="/register" className="w-full lg:w-auto" onClick={close}>
        Register
      </ButtonLink>
    </>
  );

  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-ink-950/85 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <Logo />
        <button
          type="button"
          className="rounded-lg p-2 text-slate-200 hover:bg-white/10 lg:hidden"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
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
                <NavLink to={item.to} end={item.to === '/admin' || item.to === '/dashboard'} className={linkClass} onClick={close}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          {withAccount ? (
            <div className="flex flex-col gap-2 border-t border-white/10 pt-3 lg:flex-row lg:items-center lg:border-0 lg:pt-0">
              {session ? (
                <span className="px-3 text-sm text-slate-400 lg:hidden lg:px-0 xl:inline">Signed in as {session.user.username}</span>
              ) : null}
              {account}
            </div>
          ) : (
            // Holds the buttons' height on desktop until they are known, so the page below does not
            // move down when they appear (a layout shift).
            <span aria-hidden="true" className={buttonClass('ghost', 'invisible hidden lg:inline-flex')}>
              Login
            </span>
          )}
        </div>
      </nav>
    </header>
  );
}
