import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { storage, STORAGE_KEYS } from '../../../lib/storage';
import { playerCountQueryKey, usePlayerCount } from '../api/get-player-count';

/** The last count this device saw, so the number starts there rather than at a made-up value. */
export function lastSeenPlayerCount(): number {
  const n = Number(storage.get(STORAGE_KEYS.lastPlayerCount));
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;
}

/** The live player count: fetched once, then kept current by the socket event `playerCountUpdated`. */
export function useLivePlayerCount(): { count: number | undefined; isError: boolean } {
  const queryClient = useQueryClient();
  const query = usePlayerCount();

  useEffect(() => {
    const onUpdate = (count: number) => {
      if (typeof count === 'number' && Number.isFinite(count) && count >= 0) queryClient.setQueryData(playerCountQueryKey, count);
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
    if (query.data !== undefined) storage.set(STORAGE_KEYS.lastPlayerCount, String(query.data));
  }, [query.data]);

  return { count: query.data, isError: query.isError };
}
