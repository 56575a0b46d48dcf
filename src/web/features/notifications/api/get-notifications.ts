import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { notificationSchema, type Notification } from '../../../../shared/schemas/notifications';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { notificationKeys } from './keys';

export const INBOX_PAGE_SIZE = 10;

/** `GET /api/notifications?limit&offset`: one page of the caller's inbox, newest first (`[]` without a token). */
export async function getNotifications(page: number): Promise<{ notifications: Notification[]; total: number }> {
  const search = new URLSearchParams({ limit: String(INBOX_PAGE_SIZE), offset: String((page - 1) * INBOX_PAGE_SIZE) });
  const { data, headers } = await apiRequestWithHeaders(`/api/notifications?${search}`);
  const notifications = z.array(notificationSchema).parse(data);
  return { notifications, total: totalCount(headers, notifications.length) };
}

export function useNotifications(page: number) {
  const userId = useSession()?.user.id ?? null;
  return useQuery({
    queryKey: notificationKeys.inbox(userId, page),
    queryFn: () => getNotifications(page),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
