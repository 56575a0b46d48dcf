/** Roles a user can have. Only the first two can be chosen at registration; admins come from ADMIN_* at start-up. */
export const ROLES = ['player', 'server_owner', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const REGISTRABLE_ROLES = ['player', 'server_owner'] as const;
export type RegistrableRole = (typeof REGISTRABLE_ROLES)[number];

/** Subscription plans; '' means none. */
export const PLANS = ['', 'Pro', 'Premium'] as const;
export type Plan = (typeof PLANS)[number];

/** Normalises a plan name case-insensitively: stored and Stripe-given plan names may differ in case. */
export function normalizePlan(value: string | null | undefined): Plan {
  const lower = (value ?? '').trim().toLowerCase();
  if (lower === 'pro') return 'Pro';
  if (lower === 'premium') return 'Premium';
  return '';
}
