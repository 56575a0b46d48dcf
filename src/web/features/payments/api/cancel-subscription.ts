import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { paymentKeys } from './keys';
import { writeBackPlan } from './get-subscription';

/** `POST /api/cancel-subscription` → `{plan: ''}`. */
export async function cancelSubscription(): Promise<void> {
  await apiRequest('/api/cancel-subscription', { method: 'POST' });
}

/** Cancels, sets the stored user's plan to none at once, then refetches the plan, prices and user. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => {
      writeBackPlan('');
      void queryClient.invalidateQueries({ queryKey: ['user'] });
      void queryClient.invalidateQueries({ queryKey: paymentKeys.quote });
    },
  });
}
