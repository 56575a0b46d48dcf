import { z } from 'zod';

/** A review as shown on a server page (decisions §3). */
export const reviewSchema = z.object({
  type: z.enum(['like', 'dislike']),
  review: z.string().nullable(),
  displayName: z.string(),
  username: z.string(),
  profilePicture: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Review = z.infer<typeof reviewSchema>;

/**
 * A server as the API returns it (decisions §3). `joins` counts the last 24 hours and `boosts`
 * the last 7 days; `totalJoins` and `totalBoosts` are all time.
 */
export const serverSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  statusMessage: z.string(),
  bio: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  discordLink: z.string().nullable(),
  filters: z.array(z.string()),
  profilePicture: z.string().nullable(),
  banner: z.string().nullable(),
  galleryImages: z.array(z.string()),
  likes: z.number().int(),
  dislikes: z.number().int(),
  boosts: z.number().int(),
  totalBoosts: z.number().int(),
  joins: z.number().int(),
  totalJoins: z.number().int(),
  views: z.number().int(),
  lastBoostedAt: z.iso.datetime().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  online: z.boolean().nullable(),
  createdAt: z.iso.datetime(),
});
export type Server = z.infer<typeof serverSchema>;

export const serverWithReviewsSchema = serverSchema.extend({ reviews: z.array(reviewSchema) });
export type ServerWithReviews = z.infer<typeof serverWithReviewsSchema>;
