import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { DISCORD_MSG } from '../../../../shared/discord';
import { MSG } from '../../../../shared/messages';
import type { User } from '../../../../shared/schemas/auth';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useDiscordEnabled } from '../api/get-discord-enabled';
import { userQueryKey } from '../api/get-user';
import { useLinkDiscord } from '../api/link-discord';
import { useUnlinkDiscord } from '../api/unlink-discord';
import { discordErrorText } from '../discord-errors';
import { DiscordButton, DiscordLogo } from './discord-button';
import { SetPasswordForm } from './set-password-form';

type Message = { error?: string | null; success?: string | null } | null;

/**
 * The outcome Discord's return to the profile carried (`?discord=linked`, `?discordError=`), read
 * once and then left out of the address. A link changed the user, so it is fetched again.
 */
function useLinkReturn(): [Message, (message: Message) => void] {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const linked = params.get('discord') === 'linked';
  const errorCode = params.get('discordError');
  const [message, setMessage] = useState<Message>(() =>
    linked
      ? { success: t('auth.discordCard.linked') }
      : errorCode !== null
        ? { error: discordErrorText(t, errorCode, t('auth.discordCard.linkFailed')) }
        : null,
  );
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || (!linked && errorCode === null)) return;
    handled.current = true;
    if (linked) void queryClient.invalidateQueries({ queryKey: userQueryKey });
    setParams({}, { replace: true });
  }, [linked, errorCode, setParams, queryClient]);
  return [message, setMessage];
}

/**
 * The profile's Discord card: the linked account (name, since when) with Unlink, or a Link Discord
 * button. An account made with Discord has no password yet: unlinking would lock it out, so it
 * sets a password here first.
 */
export function DiscordCard() {
  const { t } = useT();
  const session = useSession();
  const enabled = useDiscordEnabled();
  const [message, setMessage] = useLinkReturn();
  const user = session?.user;
  // A linked account stays visible even if the site turned Discord off meanwhile.
  if (!user || (!enabled && !user.discord)) return null;

  return (
    <section
      aria-labelledby="discord-heading"
      data-testid="discord-card"
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-5"
    >
      <div>
        <h2 id="discord-heading" className="text-lg font-semibold text-white">
          {t('auth.discordCard.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-400">{user.discord ? t('auth.discordCard.linkedIntro') : t('auth.discordCard.intro')}</p>
      </div>
      {user.discord ? (
        <Linked user={user} discord={user.discord} onMessage={setMessage} />
      ) : (
        <NotLinked hasPassword={user.hasPassword} onMessage={setMessage} />
      )}
      <FormMessage error={message?.error} success={message?.success} />
    </section>
  );
}

/**
 * Link Discord. Linking adds a way into the account for good, so an account with a password
 * confirms it first: a session alone (a borrowed device, a stolen token) cannot add one.
 */
function NotLinked({ hasPassword, onMessage }: { hasPassword: boolean; onMessage: (message: Message) => void }) {
  const { t } = useT();
  const link = useLinkDiscord();
  const [leaving, setLeaving] = useState(false);
  const [password, setPassword] = useState('');
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    onMessage(null);
    try {
      const url = await link.mutateAsync(hasPassword ? { currentPassword: password } : {});
      setLeaving(true);
      window.location.assign(url);
    } catch (error) {
      onMessage({ error: errorText(error, t('auth.discordCard.linkFailed')) });
    }
  };
  const busy = link.isPending || leaving;
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3">
      {hasPassword ? (
        <TextField
          label={t('auth.field.currentPassword')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t('auth.discordCard.passwordHint')}
        />
      ) : null}
      <DiscordButton type="submit" busy={busy} disabled={hasPassword && !password} className="w-full sm:w-auto sm:self-start">
        {busy ? t('auth.discord.opening') : t('auth.discordCard.link')}
      </DiscordButton>
    </form>
  );
}

function Linked({
  user,
  discord,
  onMessage,
}: {
  user: User;
  discord: NonNullable<User['discord']>;
  onMessage: (message: Message) => void;
}) {
  const { t } = useT();
  const message = useMessageText();
  const unlink = useUnlinkDiscord();
  // Awaited rather than mutate callbacks: a success unmounts this part (the card shows Link
  // Discord then), and the message belongs to the card, which stays.
  const onUnlink = async () => {
    onMessage(null);
    try {
      onMessage({ success: await unlink.mutateAsync() });
    } catch (error) {
      onMessage({ error: errorText(error, MSG.internal) });
    }
  };
  return (
    <>
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-white/10 bg-white/5 p-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-[#5865F2] text-white">
          <DiscordLogo className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-white" data-testid="discord-name">
            {discord.username}
          </p>
          <p className="text-xs text-slate-400">{t('auth.discordCard.since', { date: formatDate(discord.linkedAt) })}</p>
        </div>
        <Button
          variant="secondary"
          className="min-h-11"
          disabled={!user.hasPassword || unlink.isPending}
          aria-describedby={user.hasPassword ? undefined : 'discord-unlink-reason'}
          onClick={onUnlink}
        >
          {unlink.isPending ? t('auth.discordCard.unlinking') : t('auth.discordCard.unlink')}
        </Button>
      </div>
      {user.hasPassword ? null : (
        <>
          <p id="discord-unlink-reason" className="text-sm text-amber-100">
            {message(DISCORD_MSG.lastWayIn)}
          </p>
          <SetPasswordForm onDone={(text) => onMessage({ success: text })} />
        </>
      )}
    </>
  );
}
