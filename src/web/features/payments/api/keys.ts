/** react-query keys of the payments feature, so a mutation can refresh what it changed. */
export const paymentKeys = {
  all: ['payments'] as const,
  quote: ['payments', 'quote'] as const,
  /** Under `['user', 'servers']`: a new server or another login refreshes the balances too. */
  boostCredits: ['user', 'servers', 'boost-credits'] as const,
  history: (page: number) => ['payments', 'history', page] as const,
  checkout: (id: string) => ['payments', 'checkout', id] as const,
  /** Under `['user']` so refreshing the user refreshes the plan too. */
  subscription: ['user', 'subscription'] as const,
};
