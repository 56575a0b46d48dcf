import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { reportBodySchema } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export type ReportInput = z.infer<typeof reportBodySchema>;

/** `POST /api/reports {serverId, reviewUsername?, reason}` → 201: a player reports a server or one of its reviews. */
export async function reportServer(input: ReportInput): Promise<void> {
  await apiRequest('/api/reports', { method: 'POST', body: input });
}

export function useReportServer() {
  return useMutation({ mutationFn: reportServer });
}
