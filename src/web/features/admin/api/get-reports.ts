import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { reportSchema, type Report } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/reports?status=open`: the moderation queue. */
export async function getOpenReports(): Promise<Report[]> {
  return z.array(reportSchema).parse(await apiRequest('/api/admin/reports?status=open'));
}

export function useOpenReports() {
  return useQuery({ queryKey: adminKeys.reports, queryFn: getOpenReports });
}
