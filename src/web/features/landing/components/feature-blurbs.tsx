const PLAYERS = [
  {
    title: 'Find your community',
    text: 'Search by name and filter by what matters: economy, serious RP, whitelist, jobs, gangs and more.',
  },
  { title: 'Hot & popular, honestly', text: 'Rankings come from real likes, joins and boosts, and every vote counts once.' },
  { title: 'Never miss an event', text: 'Get a push notification when your servers announce events or open slots.' },
];
const OWNERS = [
  { title: 'A page that looks like you', text: 'Banner, gallery, colours, Discord link and live status straight from your game server.' },
  { title: 'Promote when it counts', text: 'Boosts, Server of the Weekend and push promotions put you in front of active players.' },
  { title: 'Know what works', text: 'Views, joins and likes over time, so you can see which announcement brought players in.' },
];

function Column({ heading, items, accent }: { heading: string; items: typeof PLAYERS; accent: string }) {
  return (
    <div className="rounded-3xl border border-white/10 bg-ink-900/60 p-6 sm:p-8">
      <h2 className={`text-sm font-semibold uppercase tracking-[0.2em] ${accent}`}>{heading}</h2>
      <ul className="mt-5 flex flex-col gap-5">
        {items.map((item) => (
          <li key={item.title} className="flex gap-3">
            <span className={`mt-1.5 size-2 shrink-0 rounded-full bg-current ${accent}`} aria-hidden="true" />
            <div>
              <h3 className="font-semibold text-white">{item.title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-400">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the product offers, for players and for owners. */
export function FeatureBlurbs() {
  return (
    <section aria-label="Features" className="mx-auto grid w-full max-w-7xl gap-6 px-4 pb-16 md:grid-cols-2">
      <Column heading="For players" items={PLAYERS} accent="text-brand-400" />
      <Column heading="For server owners" items={OWNERS} accent="text-pink-400" />
    </section>
  );
}
