import { sql } from 'kysely';

/**
 * A server's place on the Players sort: its player count when the game poller reached it, -1 when
 * never polled (no count, so after every polled server). `servers_players_idx` holds exactly this
 * expression: the Players list and the live player total are ranges of that index.
 */
export const PLAYERS_KEY = sql<number>`(CASE WHEN servers.online IS NULL THEN -1 ELSE servers.current_players END)`;
