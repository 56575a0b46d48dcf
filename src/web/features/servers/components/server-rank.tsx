import type { Rank } from '../../../../shared/schemas/server';
import { useFilterLabels } from '../../../i18n/filter-label';
import { T, useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';

/**
 * The rank line of a server page: "#12 of 3,481 in Most Popular" overall, then "#3 in FiveM", its
 * place in its game.
 */
export function ServerRank({ rank, className = '' }: { rank: Rank | null | undefined; className?: string }) {
  const { t } = useT();
  const label = useFilterLabels();
  if (!rank) return null;
  return (
    <p className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-sm font-semibold ${className}`} data-testid="server-rank">
      <span title={t('browse.rank.title')}>
        <T
          id="browse.rank.overall"
          values={{ position: formatNumber(rank.position), of: formatNumber(rank.of) }}
          components={{ muted: <span className="font-normal opacity-80" /> }}
        />
      </span>
      {rank.game ? (
        <span>{t('browse.rank.game', { position: formatNumber(rank.game.position), game: label.filter(rank.game.name) })}</span>
      ) : null}
    </p>
  );
}
