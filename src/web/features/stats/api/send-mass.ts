import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { statsKeys } from './keys';

export interface SendMassInput {
  serverId: string;
  /** Empty: the server's current players, or 0. */
  playerCount: number | '';
  isEvent: boolean;
  eventName?: string;
  eventTime?: string;
}

const sentSchema = z.object({ id: z.string(), recipients: z.number(), playerCount: z.number(), remaining: z.number() });
export type SendMassResult = z.infer<typeof sentSchema>;

/** `POST /api/notifications/send-mass` → 202 with the recipients and the pushes left. */
export async function sendMass(input: SendMassInput): Promise<SendMassResult> {
  return sentSchema.parse(await apiRequest('/api/notifications/send-mass', { method: 'POST', body: input }));
}

export function useSendMass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMass,
    onSettled: () => queryClient.invalidateQueries({ queryKey: statsKeys.pushCount }),
  });
}
