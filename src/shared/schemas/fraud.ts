import { z } from 'zod';

/** How a vote or join stands: counted in rankings, held for review, or voided by an admin. */
export const VOTE_STATUSES = ['counted', 'held', 'voided'] as const;
export type VoteStatus = (typeof VOTE_STATUSES)[number];

/** A server whose recent votes look made, with what makes them look so. */
export const fraudSuspectSchema = z.object({
  server: z.object({ id: z.string(), name: z.string() }),
  /** 0 to 100: how far the last 24 hours look like no crowd of real players. */
  score: z.number().int(),
  /** Votes, joins and daily votes in the window (counted and held). */
  rows: z.number().int(),
  held: z.number().int(),
  /** Share from accounts less than a day old when they voted. */
  youngShare: z.number(),
  /** The network most of them came from, and how many. */
  topNetwork: z.object({ network: z.string(), rows: z.number().int() }).nullable(),
  /** Accounts registered within 15 minutes of another from the same network. */
  burstAccounts: z.number().int(),
});
export type FraudSuspect = z.infer<typeof fraudSuspectSchema>;
export const fraudSuspectsSchema = z.array(fraudSuspectSchema);

/** One vote, join or daily vote of a suspect server: who, from where, when, how it stands. */
export const fraudEvidenceRowSchema = z.object({
  kind: z.enum(['vote', 'join', 'dailyVote']),
  id: z.string(),
  type: z.enum(['like', 'dislike']).nullable(),
  account: z.object({
    id: z.string(),
    username: z.string(),
    registeredAt: z.iso.datetime(),
    registeredNetwork: z.string().nullable(),
    confirmed: z.boolean(),
  }),
  network: z.string().nullable(),
  status: z.enum(VOTE_STATUSES),
  createdAt: z.iso.datetime(),
});
export type FraudEvidenceRow = z.infer<typeof fraudEvidenceRowSchema>;
export const fraudEvidenceSchema = z.array(fraudEvidenceRowSchema);

const idList = z
  .array(z.string().regex(/^\d{1,15}$/, 'ids are strings of digits'))
  .max(5000)
  .default([]);

/**
 * `POST /api/admin/fraud/actions`: void (undo) or release (count) a set of votes, joins and daily votes, or every
 * vote and join of a set of accounts. Nothing is deleted: each row keeps its new status, the action
 * is recorded.
 */
export const fraudActionBodySchema = z
  .object({
    action: z.enum(['void', 'release']),
    voteIds: idList,
    joinIds: idList,
    dailyVoteIds: idList,
    accountIds: idList,
    reason: z.string().trim().max(500).default(''),
  })
  .refine((b) => b.voteIds.length + b.joinIds.length + b.dailyVoteIds.length + b.accountIds.length > 0, {
    message: 'Choose the votes, joins, daily votes or accounts to act on',
  });
export type FraudActionBody = z.infer<typeof fraudActionBodySchema>;

/** What an action changed. */
export const fraudActionResultSchema = z.object({
  votes: z.number().int(),
  joins: z.number().int(),
  dailyVotes: z.number().int(),
  servers: z.array(z.string()),
});
export type FraudActionResult = z.infer<typeof fraudActionResultSchema>;
