import type { StatsRange } from './get-server-stats';

/** react-query keys of the stats feature, so a mutation can refresh what it changed. */
export const statsKeys = {
  server: (id: string, days: StatsRange) => ['stats', 'server', id, days] as const,
  /** Under `['user']` so logging in or out drops it. */
  pushCount: ['user', 'push-count'] as const,
};
