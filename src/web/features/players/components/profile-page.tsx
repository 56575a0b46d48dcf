import { MSG } from '../../../../shared/messages';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { Skeleton } from '../../../components/skeleton';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { ConfirmEmailNotice, DiscordCard } from '../../auth';
import { FollowedServers } from '../../servers';
import { usePlayer } from '../api/get-player';
import { ProfileEditor } from './profile-editor';
import { ServerList } from './server-list';

/**
 * The language of the site and of the e-mails sent to this user: saved to the account as soon as
 * it is chosen. The heading names it, so the switcher's own label is for screen readers only.
 */
function LanguageCard() {
  const { t } = useT();
  return (
    <section aria-labelledby="language-heading" className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-5">
      <div>
        <h2 id="language-heading" className="text-lg font-semibold text-white">
          {t('landing.profile.language')}
        </h2>
        <p className="mt-1 text-sm text-slate-400">{t('landing.profile.languageIntro')}</p>
      </div>
      <LanguageSwitcher className="[&>label]:sr-only" />
    </section>
  );
}

/**
 * `/profile`: the signed-in user's name and picture (editable), the linked Discord account, the
 * site's language, vote counts, and joined and boosted servers.
 */
export function ProfilePage() {
  const { t } = useT();
  const messageText = useMessageText();
  const session = useSession();
  const { data: profile, isPending, isError } = usePlayer(session?.user.id);

  if (isPending) {
    return (
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8" aria-busy="true">
        <Skeleton className="h-40" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (isError) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16">
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {messageText(MSG.loadProfileFailed)}
        </p>
      </div>
    );
  }

  const picture = profile.profilePicture ?? profile.profilePic;
  const stats: Array<[MessageId, number]> = [
    ['landing.profile.statJoined', profile.joinedServers.length],
    ['landing.profile.statLikes', profile.likesGiven],
    ['landing.profile.statDislikes', profile.dislikesGiven],
    ['landing.profile.statBoosts', profile.boostsGiven],
  ];
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-5 rounded-2xl border border-white/10 bg-ink-900/80 p-5 sm:flex-row sm:items-center sm:p-6">
        {picture ? (
          <img src={picture} alt="" width={256} height={256} className="size-24 rounded-full border-2 border-brand-400/60 object-cover" />
        ) : (
          <span
            aria-hidden="true"
            className="grid size-24 place-items-center rounded-full bg-gradient-to-br from-brand-600 to-accent-500 text-4xl font-black text-white"
          >
            {(profile.displayName || profile.username).charAt(0).toUpperCase()}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-3xl font-black text-white">{profile.displayName || profile.username}</h1>
          <p className="text-slate-400">@{profile.username}</p>
        </div>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {stats.map(([label, value]) => (
            <div key={label} className="flex flex-col-reverse rounded-xl border border-white/10 bg-white/5 px-3 py-2 text-center">
              <dt className="text-xs text-slate-400">{t(label)}</dt>
              <dd className="text-xl font-bold tabular-nums text-white">{formatNumber(value)}</dd>
            </div>
          ))}
        </dl>
      </header>
      <ConfirmEmailNotice />
      <div className="grid gap-6 lg:grid-cols-[22rem_1fr]">
        <div className="grid content-start gap-6">
          <ProfileEditor key={profile.id} profile={profile} />
          <DiscordCard />
          <LanguageCard />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <FollowedServers />
          <ServerList
            title={t('landing.profile.joinedTitle')}
            servers={profile.joinedServers}
            empty={t('landing.profile.joinedEmpty')}
            testId="joined-servers"
          />
          <ServerList
            title={t('landing.profile.boostedTitle')}
            servers={profile.boostedServers}
            empty={t('landing.profile.boostedEmpty')}
            testId="boosted-servers"
          />
        </div>
      </div>
    </div>
  );
}
