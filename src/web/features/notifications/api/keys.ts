/** react-query keys of the notifications feature. Under `['user']` so logging in or out refreshes them. */
export const notificationKeys = {
  all: ['user', 'notifications'] as const,
  inbox: (userId: string | null, page: number) => ['user', 'notifications', 'inbox', userId, page] as const,
};
