import { useEffect, useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { FormMessage } from '../../../components/form-message';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useDiscordEnabled } from '../api/get-discord-enabled';
import { useStartDiscord } from '../api/start-discord';
import { DiscordButton } from './discord-button';

/** The line between a form and another way in. */
export function OrDivider() {
  const { t } = useT();
  return (
    <div className="flex items-center gap-3 text-xs font-semibold tracking-wider text-slate-500 uppercase">
      <span aria-hidden="true" className="h-px flex-1 bg-white/10" />
      {t('auth.discord.or')}
      <span aria-hidden="true" className="h-px flex-1 bg-white/10" />
    </div>
  );
}

/**
 * "Continue with Discord" under a sign-in form, with an "or" divider above it; nothing when the
 * site has no Discord application. Starts an authorization and sends the browser to Discord,
 * which brings it back to /login (signed in) or /register (a new account).
 */
export function ContinueWithDiscord({ returnTo, divider = true }: { returnTo?: string; divider?: boolean }) {
  const { t } = useT();
  const enabled = useDiscordEnabled();
  const start = useStartDiscord();
  const [leaving, setLeaving] = useState(false);
  // Back from Discord's page with the browser's back button, the page may come from the
  // back-forward cache as it was left: busy. It is usable again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);
  if (!enabled) return null;

  const onClick = () =>
    start.mutate(returnTo, {
      onSuccess: (url) => {
        setLeaving(true);
        window.location.assign(url);
      },
    });
  const busy = start.isPending || leaving;
  return (
    <div className="flex flex-col gap-4">
      {divider ? <OrDivider /> : null}
      <DiscordButton busy={busy} onClick={onClick} className="w-full">
        {busy ? t('auth.discord.opening') : t('auth.discord.continue')}
      </DiscordButton>
      <FormMessage error={start.isError ? errorText(start.error, MSG.internal) : null} />
    </div>
  );
}
