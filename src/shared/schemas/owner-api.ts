import { z } from 'zod';
import { instantSchema, queryInt } from './common';
import { rankSchema } from './server';

/** An API key as the dashboard lists it (never the key itself). */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export const apiKeyListSchema = z.array(apiKeySchema);

/** `POST /api/servers/{id}/api-keys`: a name for the key. */
export const apiKeyBodySchema = z.object({ name: z.string().trim().min(1, 'Give the key a name').max(60) });

/** The new key, shown this once. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });

/** `GET /api/v1/server`: the key's server, live. */
export const v1ServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  online: z.boolean().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  monthVotes: z.number().int(),
  rank: rankSchema.nullable(),
});

/** `GET /api/v1/votes?since=&after=&limit=`: counted daily votes, oldest first, paged by `after` (the last id seen). */
export const v1VotesQuerySchema = z.object({
  since: instantSchema('since').optional(),
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'after is a vote id')
    .optional(),
  limit: queryInt('limit', 1, 500).default(100),
});
export const v1VoteSchema = z.object({
  id: z.string(),
  username: z.string(),
  playerName: z.string().nullable(),
  votedAt: z.iso.datetime(),
});
export const v1VotesSchema = z.array(v1VoteSchema);

/** `GET /api/v1/votes/check?player=`: whether a player (in-game name or site username) voted in the last 24 hours. */
export const v1CheckQuerySchema = z.object({ player: z.string().trim().min(1, 'player is required').max(32) });
export const v1CheckSchema = z.object({
  voted: z.boolean(),
  votedAt: z.iso.datetime().nullable(),
  nextVoteAt: z.iso.datetime().nullable(),
});
