import { useQuery } from '@tanstack/react-query';
import { historySchema, type History } from '../../../../shared/schemas/game-status';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { gameStatusKeys } from './keys';

/** `GET /api/servers/{id}/history?range=`: player counts from the game, with average, peak and uptime. */
export function playerHistoryQuery(serverId: string, range: History['range']): PageQuery<History> {
  return {
    key: () => gameStatusKeys.history(serverId, range),
    path: `/api/servers/${encodeURIComponent(serverId)}/history?range=${range}`,
    parse: (answer) => historySchema.parse(answer.data),
  };
}

/** Refetched every minute, so a page left open picks up new polls without a reload. */
export function usePlayerHistory(serverId: string, range: History['range']) {
  const query = playerHistoryQuery(serverId, range);
  return useQuery({
    queryKey: query.key(''),
    queryFn: () => fetchPageQuery(query),
    refetchInterval: 60_000,
  });
}
