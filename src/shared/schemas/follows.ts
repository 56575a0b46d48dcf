import { z } from 'zod';

/** A followed server as `/profile` lists it: live status and the next event. */
export const followedServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  profilePicture: z.string().nullable(),
  online: z.boolean().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  followedAt: z.iso.datetime(),
  nextEvent: z.object({ title: z.string(), startsAt: z.iso.datetime() }).nullable(),
});
export const followedServersSchema = z.array(followedServerSchema);

/** `POST /api/servers/{id}/events`: an event the followers hear of. */
export const serverEventBodySchema = z.object({
  title: z.string().trim().min(1, 'Give the event a title').max(80),
  details: z.string().trim().max(500).default(''),
  startsAt: z.iso.datetime({ error: 'startsAt must be an ISO date-time' }),
});

export const serverEventSchema = z.object({ id: z.string(), title: z.string(), details: z.string(), startsAt: z.iso.datetime() });
export const serverEventsSchema = z.array(serverEventSchema);

/** `POST /api/servers/{id}/follow`: whether the caller follows it now, and how many do. */
export const followStateSchema = z.object({ following: z.boolean(), followers: z.number().int() });
export type FollowState = z.infer<typeof followStateSchema>;
