import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';

type Blurb = { title: MessageId; text: MessageId };

const PLAYERS: readonly Blurb[] = [
  { title: 'landing.features.communityTitle', text: 'landing.features.communityText' },
  { title: 'landing.features.rankingsTitle', text: 'landing.features.rankingsText' },
  { title: 'landing.features.eventsTitle', text: 'landing.features.eventsText' },
];
const OWNERS: readonly Blurb[] = [
  { title: 'landing.features.pageTitle', text: 'landing.features.pageText' },
  { title: 'landing.features.promoteTitle', text: 'landing.features.promoteText' },
  { title: 'landing.features.statsTitle', text: 'landing.features.statsText' },
];

function Column({ heading, items, accent }: { heading: string; items: readonly Blurb[]; accent: string }) {
  const { t } = useT();
  return (
    <div className="rounded-3xl border border-white/10 bg-ink-900/60 p-6 sm:p-8">
      <h2 className={`text-sm font-semibold uppercase tracking-[0.2em] ${accent}`}>{heading}</h2>
      <ul className="mt-5 flex flex-col gap-5">
        {items.map((item) => (
          <li key={item.title} className="flex gap-3">
            <span className={`mt-1.5 size-2 shrink-0 rounded-full bg-current ${accent}`} aria-hidden="true" />
            <div>
              <h3 className="font-semibold text-white">{t(item.title)}</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-400">{t(item.text)}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the product offers, for players and for owners. */
export function FeatureBlurbs() {
  const { t } = useT();
  return (
    <section aria-label={t('landing.features.label')} className="mx-auto grid w-full max-w-7xl gap-6 px-4 pb-16 md:grid-cols-2">
      <Column heading={t('landing.features.forPlayers')} items={PLAYERS} accent="text-brand-400" />
      <Column heading={t('landing.features.forOwners')} items={OWNERS} accent="text-pink-400" />
    </section>
  );
}
