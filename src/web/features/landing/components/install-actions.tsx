import { Button, ButtonLink } from '../../../components/button';
import { promptInstall, useCanInstall } from '../../../lib/install-prompt';

/** Install App (enabled once the browser offers installation) and Launch in Browser. */
export function InstallActions() {
  const canInstall = useCanInstall();
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <Button
        onClick={() => void promptInstall()}
        disabled={!canInstall}
        className="px-6 py-3 text-base"
        title={canInstall ? 'Install RP Servers on this device' : 'Your browser has not offered installation yet'}
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
        Install App
      </Button>
      <ButtonLink to="/home" variant="secondary" className="px-6 py-3 text-base">
        Launch in Browser
      </ButtonLink>
    </div>
  );
}
