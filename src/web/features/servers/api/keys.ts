/** react-query keys of the server features, so a mutation can refresh what it changed. */
export const serverKeys = {
  all: ['servers'] as const,
  list: (params: object) => ['servers', 'list', params] as const,
  justJoined: ['servers', 'just-joined'] as const,
  weekend: ['servers', 'weekend'] as const,
  detail: (id: string) => ['servers', 'detail', id] as const,
  reviews: (id: string) => ['servers', 'reviews', id] as const,
  categories: ['filters', 'categories'] as const,
  /** Under `['user']` so logging in or out drops the previous user's servers. */
  own: ['user', 'servers'] as const,
};
