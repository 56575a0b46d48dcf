import { z } from 'zod';

/** A delivery of one vote to one target, as the dashboard's log shows it. */
export const rewardDeliverySchema = z.object({
  id: z.string(),
  kind: z.enum(['webhook', 'votifier']),
  test: z.boolean(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  playerName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});

/** `GET /api/servers/{id}/rewards`: what is set up (no secrets) and the latest deliveries. */
export const rewardSettingsSchema = z.object({
  webhook: z.object({ url: z.string(), secretHint: z.string() }).nullable(),
  votifier: z
    .object({ host: z.string(), port: z.number().int(), version: z.union([z.literal(1), z.literal(2)]), keyHint: z.string() })
    .nullable(),
  deliveries: z.array(rewardDeliverySchema),
});
export type RewardSettings = z.infer<typeof rewardSettingsSchema>;

/** `PUT /api/servers/{id}/rewards/webhook`: an HTTPS URL; `rotate` makes a new signing secret. */
export const webhookBodySchema = z.object({
  url: z
    .string()
    .trim()
    .max(500)
    .url('Enter the full https:// address of your webhook')
    .refine((u) => u.startsWith('https://'), 'The webhook must be an https:// address'),
  rotate: z.boolean().default(false),
});

/** The answer: the signing secret, shown this once (when new or rotated). */
export const webhookSavedSchema = z.object({ url: z.string(), secret: z.string().nullable() });

/** `PUT /api/servers/{id}/rewards/votifier`: host, port and the v2 token or the v1 public key. */
export const votifierBodySchema = z.discriminatedUnion('version', [
  z.object({
    version: z.literal(2),
    host: z.string().trim().min(1, 'Enter the Votifier host').max(253),
    port: z.number().int().min(1).max(65535),
    token: z.string().trim().min(8, 'Paste the token from NuVotifier’s config').max(200),
  }),
  z.object({
    version: z.literal(1),
    host: z.string().trim().min(1, 'Enter the Votifier host').max(253),
    port: z.number().int().min(1).max(65535),
    publicKey: z.string().trim().min(100, 'Paste the contents of Votifier’s public.key').max(2000),
  }),
]);
export type VotifierBody = z.infer<typeof votifierBodySchema>;

/** `POST /api/servers/{id}/rewards/test`: the test deliveries made (one per target). */
export const rewardTestSchema = z.object({ deliveries: z.array(z.string()) });
