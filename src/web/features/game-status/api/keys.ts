/** react-query keys of the game-status feature. Status and history sit under `['servers']`, so a server change refreshes them. */
export const gameStatusKeys = {
  games: ['games'] as const,
  status: (serverId: string) => ['servers', 'game', serverId] as const,
  history: (serverId: string, range: string) => ['servers', 'history', serverId, range] as const,
};
