import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import {
  rewardSettingsSchema,
  rewardTestSchema,
  webhookSavedSchema,
  type RewardSettings,
  type VotifierBody,
} from '../../../../shared/schemas/vote-rewards';
import { apiRequest } from '../../../lib/api-client';

const base = (serverId: string) => `/api/servers/${encodeURIComponent(serverId)}/rewards`;
const key = (serverId: string) => ['rewards', serverId] as const;

/** `GET /api/servers/{id}/rewards`: what is set up and the latest deliveries; refreshed while any is pending. */
export function useRewards(serverId: string) {
  return useQuery({
    queryKey: key(serverId),
    queryFn: async (): Promise<RewardSettings> => rewardSettingsSchema.parse(await apiRequest(base(serverId))),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false),
  });
}

/** Every write here answers what changed; the settings and the log are read again after it. */
function useRewardsWrite<T, R>(serverId: string, write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => void queryClient.invalidateQueries({ queryKey: key(serverId) }) });
}

/** `PUT …/rewards/webhook {url, rotate}` → the signing secret, shown this once (null when kept). */
export const useSaveWebhook = (serverId: string) =>
  useRewardsWrite(serverId, async (body: { url: string; rotate: boolean }) =>
    webhookSavedSchema.parse(await apiRequest(`${base(serverId)}/webhook`, { method: 'PUT', body })),
  );

/** `PUT …/rewards/votifier` with the v2 token or the v1 public key. */
export const useSaveVotifier = (serverId: string) =>
  useRewardsWrite(
    serverId,
    async (body: VotifierBody) => messageSchema.parse(await apiRequest(`${base(serverId)}/votifier`, { method: 'PUT', body })).message,
  );

/** `DELETE …/rewards/webhook` or `…/votifier`. */
export const useRemoveRewardTarget = (serverId: string) =>
  useRewardsWrite(
    serverId,
    async (kind: 'webhook' | 'votifier') =>
      messageSchema.parse(await apiRequest(`${base(serverId)}/${kind}`, { method: 'DELETE' })).message,
  );

/** `POST …/rewards/test`: a test vote to every target set up. */
export const useSendTestVote = (serverId: string) =>
  useRewardsWrite(
    serverId,
    async (_: void) => rewardTestSchema.parse(await apiRequest(`${base(serverId)}/test`, { method: 'POST' })).deliveries.length,
  );
