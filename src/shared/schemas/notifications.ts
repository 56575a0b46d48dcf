import { z } from 'zod';
import { LIMITS } from '../limits';
import { MSG } from '../messages';
import { idParam, pageQuery } from './common';

/** An inbox entry. `_id` repeats `id` for clients written against the original API. */
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

/** `GET /api/notifications`: one page of the inbox, newest first (the total is in `x-total-count`). */
export const notificationsSchema = z.array(notificationSchema);

/** Links in notifications are paths on this site only, so a notification cannot send anyone elsewhere. */
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
 * players, or 0); otherwise a non-negative whole number.
 */
export const sendMassBodySchema = z.object({
  serverId: z.string({ error: MSG.selectServer }).min(1, MSG.selectServer),
  playerCount: z.unknown().optional(),
  isEvent: z.boolean().optional().default(false),
  eventName: z.string().trim().max(100).optional(),
  eventTime: z.string().trim().max(100).optional(),
});

/** What `send-mass` answers: the promotion's id, how many browsers it goes to, and what is left today. */
export const pushPromotionResultSchema = z.object({
  id: z.string(),
  recipients: z.number().int(),
  playerCount: z.number().int(),
  remaining: z.number().int(),
});

/** Promotions sent in the last 24 hours and the plan's limit. */
export const pushCountSchema = z.object({ count: z.number().int(), limit: z.number().int() });
/** The VAPID public key browsers subscribe with. */
export const vapidKeySchema = z.object({ publicKey: z.string() });

/** `GET /api/notifications?limit&offset`: one page of the inbox. */
export const notificationsQuerySchema = z.object({
  ...pageQuery(100, 50),
});

/** `POST /api/notifications/{id}/read`: one notification's id, or `all`; anything else is not found. */
export const notificationReadParamsSchema = z.object({
  id: z.union([z.literal('all'), idParam(MSG.notFound)], { error: MSG.notFound }),
});

/** How many notifications `POST /api/notifications` wrote. */
export const createdCountSchema = z.object({ created: z.number().int() });

/** A write that has nothing else to say. */
export const okSchema = z.object({ ok: z.literal(true) });
