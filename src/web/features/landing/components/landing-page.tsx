import { Navigate } from 'react-router';
import { SUPPORT_EMAIL } from '../../../components/site-footer';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT } from '../../../i18n/use-t';
import { isStandalone } from '../../../lib/platform';
import { useIosInstallHint } from '../hooks/use-ios-install-hint';
import { FeatureBlurbs } from './feature-blurbs';
import { InstallActions } from './install-actions';
import { IosInstallHint } from './ios-install-hint';
import { LivePlayerCount } from './live-player-count';

// Names of games, kept in the catalogs so a language may write them as its players know them.
const GAMES: readonly MessageId[] = ['landing.games.fivem', 'landing.games.redm', 'landing.games.minecraft', 'landing.games.garrysMod'];

/** `/`: hero, the live player count, install buttons and what the product offers. Installed apps go to /home. */
export function LandingPage() {
  const { t } = useT();
  // One state for the iOS banner: while it shows, the line under Install App does not repeat it.
  const iosHint = useIosInstallHint();
  if (isStandalone()) return <Navigate to="/home" replace />;
  return (
    <>
      <IosInstallHint visible={iosHint.visible} dismiss={iosHint.dismiss} />
      <section
        id="landing-hero"
        className="mx-auto grid w-full max-w-7xl items-center gap-10 px-4 py-8 sm:py-20 lg:grid-cols-[1.15fr_1fr] lg:gap-16"
      >
        <div>
          <p className="inline-flex items-center rounded-full border border-brand-400/30 bg-brand-500/10 px-3 py-1 text-xs font-semibold text-brand-400">
            {t('landing.hero.badge')}
          </p>
          <h1 className="mt-5 text-4xl font-black leading-tight tracking-tight text-white sm:text-5xl lg:text-6xl">
            <T id="landing.hero.title" components={{ highlight: <span className="text-gradient" /> }} />
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-300">{t('landing.hero.intro')}</p>
          <ul className="mt-6 flex flex-wrap gap-2" aria-label={t('landing.hero.games')}>
            {GAMES.map((g) => (
              <li key={g} className="rounded-lg border border-white/10 bg-white/5 px-3 py-1 text-sm text-slate-300">
                {t(g)}
              </li>
            ))}
          </ul>
          <div className="mt-8">
            <InstallActions hintShownAbove={iosHint.visible} />
          </div>
          <p className="mt-6 text-sm text-slate-400">
            <T
              id="landing.hero.support"
              components={{ link: <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-400 hover:text-brand-500" /> }}
            />
          </p>
        </div>
        <LivePlayerCount />
      </section>
      <FeatureBlurbs />
    </>
  );
}
