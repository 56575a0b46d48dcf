import type { ServerDetail } from '../../../../shared/schemas/server';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { usePlayerHistory } from '../../game-status';
import { useFilterCategories } from '../api/get-filter-categories';
import { agoText } from './live-facts';
import { playersNow } from './server-stats';

/** The filter categories the API names (data keys, not shown: the page shows their filters). */
const GAME_CATEGORY = 'Game';
const REGION_CATEGORY = 'Region';

/**
 * The facts a player checks first, in one row under the header: players now and today's peak,
 * uptime (24 h), region, game and version, when the game was last checked. Live numbers come from
 * the game poller only: a server not connected says so instead of a count. The 24-hour history is
 * the chart's own query, fetched once.
 */
export function ServerFacts({ server }: { server: ServerDetail }) {
  const { t, locale } = useT();
  const label = useFilterLabels();
  const day = usePlayerHistory(server.id, '24h');
  const categories = useFilterCategories();
  const [now] = useNow(60_000);
  const inCategory = (name: string) => {
    const filters = categories.data?.find((c) => c.category === name)?.filters ?? [];
    return server.filters.filter((f) => filters.includes(f));
  };
  const gameName = server.rank?.game?.name ?? inCategory(GAME_CATEGORY)[0];
  const game = gameName === undefined ? undefined : label.filter(gameName);
  const region = inCategory(REGION_CATEGORY).map(label.filter).join(', ');
  const connected = server.online !== null;
  const polled = connected && day.data && day.data.points.length > 0 ? day.data : undefined;

  const facts: Array<[string, string]> = [[t('server.facts.playersNow'), playersNow(t, server)]];
  if (polled) facts.push([t('server.facts.peakToday'), formatNumber(polled.peak)]);
  if (polled?.uptimePercent != null)
    facts.push([t('server.facts.uptime'), t('server.facts.uptimeValue', { percent: polled.uptimePercent })]);
  if (region) facts.push([t('server.facts.region'), region]);
  if (game) facts.push([t('server.facts.game'), server.live?.version ? `${game} · ${server.live.version}` : game]);
  if (server.live) facts.push([t('server.facts.checked'), agoText(locale, server.live.checkedAt, now)]);

  return (
    <dl className="flex flex-wrap gap-2" data-testid="server-facts">
      {facts.map(([label, value]) => (
        <div
          key={label}
          className="flex min-w-0 max-w-full items-baseline gap-1.5 rounded-full border border-white/10 bg-ink-900/80 px-3 py-1 text-sm"
        >
          <dt className="shrink-0 text-xs text-slate-400">{label}</dt>
          <dd className="min-w-0 truncate font-semibold text-slate-100" title={value}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
