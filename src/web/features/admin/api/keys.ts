/** react-query keys of the admin feature, so a mutation can refresh what it changed. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (params: object) => ['admin', 'users', params] as const,
  analytics: ['admin', 'analytics'] as const,
  revenue: ['admin', 'revenue'] as const,
  popularFilters: ['admin', 'popular-filters'] as const,
  settings: ['admin', 'settings'] as const,
  reports: ['admin', 'reports'] as const,
  fraud: ['admin', 'fraud'] as const,
  claims: (params: object) => ['admin', 'game-claims', params] as const,
  claimCounts: ['admin', 'game-claims', 'counts'] as const,
  campaigns: ['admin', 'email-campaigns'] as const,
  campaign: (id: string) => ['admin', 'email-campaigns', id] as const,
};
