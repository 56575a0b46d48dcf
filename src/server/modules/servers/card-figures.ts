import type { ChangedRow } from './search-index.types';

/** The figures a card shows that a change of its server's row can move without emptying the caches. */
type CardFigures = Record<string, unknown>;

/**
 * Whether a held card (its parsed JSON) shows what its server's row now says. Writes that change
 * what else a card shows (its texts, pictures, filters, being hidden) empty every cache as they
 * happen; a vote, a count of views, a join, a boost or a game poll changes only these figures, so a
 * card equal to its row in them is current and need not be read again.
 */
export function cardShowsRow(card: CardFigures, row: ChangedRow): boolean {
  return (
    card['name'] === row.name &&
    card['likes'] === row.likes &&
    card['dislikes'] === row.dislikes &&
    card['views'] === row.views &&
    card['totalBoosts'] === row.totalBoosts &&
    card['totalJoins'] === row.totalJoins &&
    card['currentPlayers'] === row.currentPlayers &&
    card['online'] === row.online &&
    card['maxPlayers'] === row.maxPlayers &&
    card['monthVotes'] === row.monthVotes &&
    card['lastBoostedAt'] === (row.lastBoostedAt?.toISOString() ?? null)
  );
}
