import { z } from 'zod';
import { LIMITS } from '../limits';
import { MSG } from '../messages';
import { pageQuery } from './common';

/** A user as the admin users list shows them. */
export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(['player', 'server_owner', 'admin']),
  email: z.string().nullable(),
  subscriptionPlan: z.enum(['', 'Pro', 'Premium']),
  servers: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** `GET /api/admin/users`: one page; the total of the search is in the `x-total-count` header. */
export const adminUsersSchema = z.array(adminUserSchema);

/** `GET /api/admin/users` filters: text in the username or e-mail, a role, and the page. */
export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(64).optional(),
  role: z.enum(['player', 'server_owner', 'admin']).optional(),
  ...pageQuery(LIMITS.listMax, 25, 1_000_000),
});

/** `GET /api/admin/analytics`: users per role, site totals and 30 days of sign-ups. */
export const analyticsSchema = z.object({
  users: z.object({ player: z.number().int(), server_owner: z.number().int(), admin: z.number().int() }),
  servers: z.number().int(),
  joins: z.number().int(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  boosts: z.number().int(),
  pushPromotions: z.number().int(),
  signups: z.array(z.object({ day: z.string(), count: z.number().int() })),
});
export type Analytics = z.infer<typeof analyticsSchema>;

const byType = z.object({ playerBoost: z.number(), ownerBoost: z.number(), subscription: z.number(), serverOfTheWeekend: z.number() });
/** Revenue of paid payments in dollars: the last day, 7 days and 30 days, and per day for the chart. */
export const revenueSchema = z.object({
  daily: byType,
  weekly: byType,
  monthly: byType,
  series: z.array(byType.extend({ day: z.string() })),
});
export type Revenue = z.infer<typeof revenueSchema>;

/** A filter and how often players searched with it in the last 30 days. */
export const popularFilterSchema = z.object({ filter: z.string(), count: z.number().int() });
export type PopularFilter = z.infer<typeof popularFilterSchema>;

/** `GET /api/admin/popular-filters`: most searched first. */
export const popularFiltersSchema = z.array(popularFilterSchema);

/** The 204 answer of a deletion: no body. */
export const deletedSchema = z.null();

/** The site-wide feature toggles, stored and enforced by the server. */
export const togglesSchema = z.object({ enableBoosting: z.boolean(), enableReviews: z.boolean(), maintenanceMode: z.boolean() });
export type Toggles = z.infer<typeof togglesSchema>;

/** `PUT /api/admin/settings`: the toggles to change; the others stay. */
export const togglesUpdateSchema = togglesSchema.partial();
export type TogglesUpdate = z.infer<typeof togglesUpdateSchema>;

/** `POST /api/testimonials`: one per owner, 1 to 300 characters after trimming. */
export const testimonialBodySchema = z.object({
  content: z.string({ error: MSG.testimonialEmpty }).trim().min(1, MSG.testimonialEmpty).max(LIMITS.testimonial, MSG.testimonialTooLong),
});

/** One owner's testimonial, with the first listed server they own. */
export const testimonialSchema = z.object({
  serverId: z.string().nullable(),
  serverName: z.string().nullable(),
  serverPicture: z.string().nullable(),
  testimonial: z.string(),
  ownerName: z.string(),
  createdAt: z.iso.datetime(),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

/** `GET /api/testimonials`: newest first. */
export const testimonialsSchema = z.array(testimonialSchema);

/** `POST /api/admin/send-email`: queued, one e-mail per recipient. */
export const sendEmailBodySchema = z.object({
  subject: z.string({ error: MSG.emailSubjectRequired }).trim().min(1, MSG.emailSubjectRequired).max(150),
  content: z.string({ error: MSG.emailContentRequired }).trim().min(1, MSG.emailContentRequired).max(20_000),
  target: z.enum(['owners', 'players'], { error: MSG.emailTargetRequired }),
});

/** A mass e-mail and its progress: `sent + skipped + failed` reaches `total` when done. */
export const emailCampaignSchema = z.object({
  id: z.string(),
  subject: z.string(),
  target: z.enum(['owners', 'players']),
  status: z.enum(['queued', 'sending', 'done', 'failed']),
  total: z.number().int(),
  sent: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});
export type EmailCampaign = z.infer<typeof emailCampaignSchema>;

export const unsubscribeBodySchema = z.object({ token: z.string().min(10).max(300) });

/** `POST /api/reports`: a user's report of a server, or of one review on it. */
export const reportBodySchema = z.object({
  serverId: z.string().regex(/^\d{1,15}$/, MSG.serverNotFound),
  reviewUsername: z.string().max(64).optional(),
  reason: z.string({ error: MSG.reportReasonRequired }).trim().min(1, MSG.reportReasonRequired).max(500),
});

/** A report in the admins' queue, with what it is about. */
export const reportSchema = z.object({
  id: z.string(),
  server: z.object({ id: z.string(), name: z.string(), hidden: z.boolean() }),
  review: z
    .object({ username: z.string(), type: z.enum(['like', 'dislike']), review: z.string().nullable(), hidden: z.boolean() })
    .nullable(),
  reason: z.string(),
  reporter: z.string().nullable(),
  status: z.enum(['open', 'actioned', 'dismissed']),
  createdAt: z.iso.datetime(),
});
export type Report = z.infer<typeof reportSchema>;

/** `GET /api/admin/reports`: the queue, oldest first. */
export const reportsSchema = z.array(reportSchema);

/** `GET /api/admin/reports?status=`: which reports to list, the open ones by default. */
export const reportsQuerySchema = z.object({ status: z.enum(['open', 'actioned', 'dismissed']).default('open') });

/** `POST /api/admin/reports/{id}/resolve`: hide what was reported, or dismiss the report. */
export const resolveReportBodySchema = z.object({ action: z.enum(['hide', 'dismiss'], { error: 'action must be hide or dismiss' }) });

/** The answer of a resolved report. */
export const resolvedSchema = z.object({ ok: z.literal(true) });
