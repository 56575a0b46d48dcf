import { useT } from '../i18n/use-t';
import { useSession } from '../lib/session';
import { useLogout } from '../lib/use-logout';
import { ButtonLink, buttonClass } from './button';

/**
 * Who the navigation's account part is drawn for: whoever is signed in on this device (the app),
 * a visitor who is not (the landing page, which a signed-in visitor never gets), or not known
 * (the frame drawn ahead of time for any page).
 */
export type NavAccountFor = 'device' | 'visitor' | 'unknown';

/**
 * Login/Register, or the signed-in user's name and Logout. A page rendered on the server is drawn
 * for a visitor who is not signed in (Login/Register): the app hydrates it only for such a visitor
 * and draws a signed-in visitor's page over it (docs/decisions/042-server-rendered-pages.md), so
 * the buttons are there before any script has run (docs/decisions/059-first-load-js.md).
 */
export function NavAccount({ drawnFor, onNavigate }: { drawnFor: NavAccountFor; onNavigate: () => void }) {
  const { t } = useT();
  const session = useSession();
  const logout = useLogout();

  if (drawnFor === 'unknown') return <AccountPlaceholder />;
  return (
    <div
      data-account={session ? 'signed-in' : 'visitor'}
      className="flex flex-col gap-2 border-t border-white/10 pt-3 lg:flex-row lg:items-center lg:border-0 lg:pt-0"
    >
      {session ? (
        <>
          <span className="px-3 text-sm text-slate-400 lg:hidden lg:px-0 xl:inline">
            {t('common.nav.signedInAs', { name: session.user.username })}
          </span>
          <button
            type="button"
            onClick={() => {
              onNavigate();
              logout();
            }}
            className={buttonClass('secondary', 'w-full lg:w-auto')}
          >
            {t('common.nav.logout')}
          </button>
        </>
      ) : (
        <>
          <ButtonLink to="/login" variant="ghost" className="w-full lg:w-auto" onClick={onNavigate}>
            {t('common.nav.login')}
          </ButtonLink>
          <ButtonLink to="/register" className="w-full lg:w-auto" onClick={onNavigate}>
            {t('common.nav.register')}
          </ButtonLink>
        </>
      )}
    </div>
  );
}

/**
 * Holds the buttons' height on desktop until they are known, so the page below does not move down
 * when they appear (a layout shift).
 */
function AccountPlaceholder() {
  const { t } = useT();
  return (
    <span aria-hidden="true" className={buttonClass('ghost', 'invisible hidden lg:inline-flex')}>
      {t('common.nav.login')}
    </span>
  );
}
