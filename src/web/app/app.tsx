import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { RouterProvider } from 'react-router/dom';
import { AccountLocale } from '../i18n/account-locale';
import { PushPermission } from '../features/notifications/components/push-permission';
import { createQueryClient } from '../lib/query-client';
import { RenderedAtProvider } from '../lib/use-now';
import { createAppRouter } from './router';
import { SessionRefresh } from './session-refresh';

/**
 * Everything around the router. The server renders its pages inside the same providers
 * (src/web/ssr/render.tsx), so a rendered page and the app's first render are the same tree.
 */
export function AppProviders({
  queryClient,
  i18n,
  renderedAt = null,
  children,
}: {
  queryClient: QueryClient;
  /** The page's language and its catalog (docs/decisions/054-languages.md). */
  i18n: I18n;
  /** When the server rendered the page being hydrated (ms since the epoch). */
  renderedAt?: number | null;
  children: ReactNode;
}) {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RenderedAtProvider at={renderedAt}>
          <SessionRefresh />
          <AccountLocale />
          <PushPermission />
          {children}
        </RenderedAtProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}

/** Providers and the router: the whole app. */
export function App({
  queryClient: given,
  i18n,
  renderedAt = null,
}: {
  queryClient?: QueryClient;
  i18n: I18n;
  /** When the server rendered the page the app hydrates (ms since the epoch), or `null`. */
  renderedAt?: number | null;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const [router] = useState(createAppRouter);
  return (
    <AppProviders queryClient={queryClient} i18n={i18n} renderedAt={renderedAt}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
