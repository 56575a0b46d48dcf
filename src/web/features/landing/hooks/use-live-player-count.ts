import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { playerCountQueryKey, usePlayerCount } from '../api/get-player-count';
import { isPlayerCount, rememberPlayerCount } from '../player-count-memory';

/** The live player count: fetched once, then kept current by the socket event `playerCountUpdated`. */
export function useLivePlayerCount(): { count: number | undefined; isError: boolean } {
  const queryClient = useQueryClient();
  const query = usePlayerCount();

  useEffect(() => {
    const onUpdate = (count: number) => {
      if (isPlayerCount(count)) queryClient.setQueryData(playerCountQueryKey, count);
    };
    // The socket client is loaded after the first paint: the count is fetched first, the socket keeps it current.
    let cancelled = false;
    let cleanup = () => {
      cancelled = true;
    };
    void import('../../../lib/socket').then(({ acquireSocket }) => {
      if (cancelled) return;
      const { socket, release } = acquireSocket();
      socket.on('playerCountUpdated', onUpdate);
      cleanup = () => {
        socket.off('playerCountUpdated', onUpdate);
        release();
      };
    });
    return () => cleanup();
  }, [queryClient]);

  useEffect(() => {
    if (query.data !== undefined) rememberPlayerCount(query.data);
  }, [query.data]);

  return { count: query.data, isError: query.isError };
}
