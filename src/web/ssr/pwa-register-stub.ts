/**
 * `virtual:pwa-register/react` where the page renderer runs (Node, tests): no service worker, so
 * nothing is waiting and the update banner draws nothing, as in the browser's first render.
 */
export function useRegisterSW(_options?: unknown) {
  return {
    needRefresh: [false, (_value: boolean) => undefined] as const,
    offlineReady: [false, (_value: boolean) => undefined] as const,
    updateServiceWorker: async (_reload?: boolean) => undefined,
  };
}
