import { ownerColors } from './owner-colors';
import type { Server } from '../../../../shared/schemas/server';
import { useT } from '../../../i18n/use-t';
import { PlayerCount } from './player-count';
import { BANNER, ServerAvatar } from './server-card';

export type HeroServer = Pick<
  Server,
  | 'name'
  | 'statusMessage'
  | 'banner'
  | 'profilePicture'
  | 'backgroundColor'
  | 'textColor'
  | 'currentPlayers'
  | 'maxPlayers'
  | 'online'
  | 'discordLink'
>;

/**
 * The top of a server page in the owner's colours: banner, picture, name, status, live players and
 * the Discord link. The dashboard shows the same component as its live preview.
 */
export function ServerHero({ server, headingLevel = 1 }: { server: HeroServer; headingLevel?: 1 | 2 }) {
  const { t } = useT();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="overflow-hidden rounded-2xl border border-white/10 bg-ink-900/80 text-slate-100" style={ownerColors(server)}>
      <div className="aspect-[3/1] max-h-72 w-full bg-gradient-to-br from-brand-600/60 to-accent-500/40">
        {server.banner ? (
          <img
            src={server.banner}
            alt=""
            width={BANNER.width}
            height={BANNER.height}
            fetchPriority="high"
            className="size-full object-cover"
          />
        ) : null}
      </div>
      <div className="flex flex-col gap-4 px-4 pb-5 @2xl:flex-row @2xl:items-end @2xl:px-6">
        <ServerAvatar
          eager
          src={server.profilePicture}
          name={server.name}
          className="relative -mt-10 size-24 rounded-2xl border-4 text-3xl @2xl:-mt-14 @2xl:size-28"
        />
        <div className="min-w-0 flex-1">
          <Heading className="text-2xl font-black break-words @2xl:text-3xl">{server.name || t('server.hero.untitled')}</Heading>
          <p className="mt-1 break-words opacity-80">{server.statusMessage || t('server.hero.noStatus')}</p>
          <PlayerCount server={server} className="mt-2 text-sm" />
        </div>
        {server.discordLink ? (
          <a
            href={server.discordLink}
            target="_blank"
            rel="noopener noreferrer"
            className="tap inline-flex shrink-0 items-center justify-center gap-2 self-start rounded-xl bg-[#5865f2] px-4 py-2.5 text-sm font-semibold text-white hover:brightness-110 @2xl:self-auto"
          >
            <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true" fill="currentColor">
              <path d="M20 5.3A17 17 0 0 0 15.8 4l-.5 1a15.7 15.7 0 0 0-4.6 0l-.5-1A17 17 0 0 0 4 5.3 17.6 17.6 0 0 0 1 17.1 17 17 0 0 0 6.2 19.7l1.1-1.7a11 11 0 0 1-1.7-.8l.4-.3a12.2 12.2 0 0 0 12 0l.4.3-1.7.8 1.1 1.7A17 17 0 0 0 23 17.1 17.6 17.6 0 0 0 20 5.3ZM8.5 14.7c-1 0-1.9-1-1.9-2.1s.8-2.1 1.9-2.1 1.9 1 1.9 2.1-.8 2.1-1.9 2.1Zm7 0c-1 0-1.9-1-1.9-2.1s.8-2.1 1.9-2.1 1.9 1 1.9 2.1-.8 2.1-1.9 2.1Z" />
            </svg>
            {t('server.hero.discord')}
            <span className="sr-only">{t('server.hero.newTab')}</span>
          </a>
        ) : null}
      </div>
    </div>
  );
}
