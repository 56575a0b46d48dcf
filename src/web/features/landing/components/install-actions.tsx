import { Button, ButtonLink } from '../../../components/button';
import { useT } from '../../../i18n/use-t';
import { promptInstall } from '../../../lib/install-prompt';
import { useCanInstall } from '../../../lib/use-can-install';
import { INSTALL_HINT_MESSAGES, installHint } from '../install-hint';

/**
 * Install App (enabled once the browser offers installation, with a line on how to install where
 * it has not, unless the iOS banner above already says it) and Launch in Browser.
 */
export function InstallActions({ hintShownAbove = false }: { hintShownAbove?: boolean }) {
  const { t } = useT();
  const canInstall = useCanInstall();
  const hint = !canInstall && !hintShownAbove;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button
          id="install-app"
          onClick={() => void promptInstall()}
          disabled={!canInstall}
          // Not offered yet: still a button that reads clearly (no faded grey), outlined, with the
          // line below saying how to install in this browser.
          className="px-6 py-3 text-base disabled:cursor-help disabled:border disabled:border-dashed disabled:border-white/30 disabled:bg-none disabled:text-slate-100 disabled:opacity-100 disabled:shadow-none"
          title={canInstall ? t('landing.install.ready') : t('landing.install.waiting')}
          aria-describedby={hint ? 'install-hint' : undefined}
        >
          <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
            <path
              d="M10 3v9m0 0l-3.5-3.5M10 12l3.5-3.5M4 14v2h12v-2"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          {t('landing.install.button')}
        </Button>
        <ButtonLink to="/home" variant="secondary" className="px-6 py-3 text-base">
          {t('landing.install.launch')}
        </ButtonLink>
      </div>
      {!hint ? null : (
        <p id="install-hint" className="max-w-md text-sm text-slate-300" data-testid="install-hint">
          {t(INSTALL_HINT_MESSAGES[installHint()])}
        </p>
      )}
    </div>
  );
}
