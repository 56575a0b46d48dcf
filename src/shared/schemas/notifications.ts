import { z } from 'zod';
import { LIMITS } from '../limits';
import { MSG } from '../messages';

/** An inbox entry (spec §3). `_id` repeats `id` for the spec's clients. */
export const notificationSchema = z.object({
  id: z.string(),
  _id: z.string(),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Links in notifications are paths on this site only (decisions §4). */
export const sitePathSchema = z
  .string()
  .trim()
  .max(300)
  .refine((v) => /^\/(?!\/)[^\s\\]*$/.test(v), MSG.linkMustBePath);

/** `POST /api/notifications` (admins): to one user or to every user of a role. */
export const createNotificationBodySchema = z
  .object({
    targetUserId: z
      .string()
      .regex(/^\d{1,15}$/, 'targetUserId must be a user id')
      .optional(),
    userType: z.enum(['player', 'server_owner', 'admin'], { error: 'userType must be player, server_owner or admin' }).optional(),
    title: z.string({ error: MSG.notificationTitleRequired }).trim().min(1, MSG.notificationTitleRequired).max(LIMITS.notificationTitle),
    message: z
      .string({ error: MSG.notificationMessageRequired })
      .trim()
      .min(1, MSG.notificationMessageRequired)
      .max(LIMITS.notificationMessage),
    link: sitePathSchema.optional().or(z.literal('')),
  })
  .refine((b) => Boolean(b.targetUserId) !== Boolean(b.userType), { message: MSG.notificationTarget });

/** The subscription a browser's PushManager gives (its JSON form). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(20).max(200), auth: z.string().min(8).max(100) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** `POST /api/push/subscribe {subscription}`; `save-subscription` takes the subscription itself. */
export const pushSubscribeBodySchema = z.object({ subscription: pushSubscriptionSchema });

/**
 * `POST /api/notifications/send-mass`. `playerCount` may be empty (then the server's current
 * players, or 0); otherwise a non-negative whole number (spec §5).
 */
export const sendMassBodySchema = z.object({
  serverId: z.string({ error: MSG.selectServer }).min(1, MSG.selectServer),
  playerCount: z.unknown().optional(),
  isEvent: z.boolean().optional().default(false),
  eventName: z.string().trim().max(100).optional(),
  eventTime: z.string().trim().max(100).optional(),
});

export const pushCountSchema = z.object({ count: z.number().int(), limit: z.number().int() });
export const vapidKeySchema = z.object({ publicKey: z.string() });
