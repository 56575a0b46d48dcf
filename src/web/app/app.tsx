import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { PushPermission } from '../features/notifications/components/push-permission';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';
import { SessionRefresh } from './session-refresh';

/** Providers and the router: the whole app. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionRefresh />
      <PushPermission />
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
