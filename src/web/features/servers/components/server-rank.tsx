import type { Rank } from '../../../../shared/schemas/server';

const count = new Intl.NumberFormat();

/** "#12 of 3,481" and "#3 in FiveM": the server's place in Most Popular, overall and in its game. */
export function rankText(rank: Rank): { overall: string; game: string | null } {
  return {
    overall: `#${count.format(rank.position)} of ${count.format(rank.of)}`,
    game: rank.game ? `#${count.format(rank.game.position)} in ${rank.game.name}` : null,
  };
}

/** The rank line of a server page: overall in Most Popular, then in its game. */
export function ServerRank({ rank, className = '' }: { rank: Rank | null | undefined; className?: string }) {
  if (!rank) return null;
  const text = rankText(rank);
  return (
    <p className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-sm font-semibold ${className}`} data-testid="server-rank">
      <span title="Place in Most Popular">
        {text.overall} <span className="font-normal opacity-80">in Most Popular</span>
      </span>
      {text.game ? <span>{text.game}</span> : null}
    </p>
  );
}
