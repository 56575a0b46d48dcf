import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { useT } from '../../../i18n/use-t';
import { adoptSession } from '../../../lib/api-client';
import { getSession } from '../../../lib/session';
import { discordErrorText } from '../discord-errors';
import { useCompleteLogin } from './use-complete-login';

/**
 * What a return from Discord to /login says, read once and then left out of the address:
 * `?discord=signed-in&next=` (the server started a session and set only its refresh cookie: the
 * session is taken up, then the post-login routing runs) or `?discordError=<code>` (shown through
 * `setError`). `signingIn` holds while the session is taken up.
 */
export function useDiscordReturn(setError: (message: string) => void): { signingIn: boolean } {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const completeLogin = useCompleteLogin();
  const signedIn = params.get('discord') === 'signed-in';
  const errorCode = params.get('discordError');
  const next = params.get('next');
  const [signingIn, setSigningIn] = useState(signedIn);
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || (!signedIn && errorCode === null)) return;
    handled.current = true;
    if (errorCode !== null) {
      const signInFailed = t('auth.discordError.signInFailed');
      setError(discordErrorText(t, errorCode, signInFailed) ?? signInFailed);
      setParams({}, { replace: true });
      return;
    }
    const fail = (message: string) => {
      setSigningIn(false);
      setParams({}, { replace: true });
      setError(message);
    };
    adoptSession().then(
      async (outcome) => {
        const session = getSession();
        if (outcome === 'renewed' && session) return completeLogin(session, { next });
        // No session behind the cookie: it was used already (a reload of this page) or has ended.
        fail(outcome === 'ended' ? t('auth.discordError.state') : MSG.internal);
      },
      () => fail(MSG.internal),
    );
  }, [signedIn, errorCode, next, setParams, setError, completeLogin, t]);

  return { signingIn };
}
