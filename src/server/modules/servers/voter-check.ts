/** Why a vote's statement did not look at its server: the voter's account refused it. */
export type RefusedVoter = 'signed-out' | 'unconfirmed';

/**
 * The sign-in check a vote's statement makes for each of its rows, as `findActiveMany` makes it
 * for every other signed-in request: the account exists, the token's version is the account's
 * (a password change or reset moves it on), and the token's login session was not ended (a
 * logout). Then the vote's own rule: a confirmed address. Over `input i` (with `token_version`
 * and `session_id`) joined to `users u`; answers 'active', 'signed-out' or 'unconfirmed'
 * (docs/decisions/068-sign-in-check-in-the-vote.md).
 */
export const VOTER_STATE = `CASE
  WHEN u.id IS NULL OR u.token_version <> i.token_version
    OR (i.session_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = i.session_id AND r.revoked_at IS NOT NULL))
    THEN 'signed-out'
  WHEN u.email IS NULL OR u.email_confirmed_at IS NULL THEN 'unconfirmed'
  ELSE 'active' END`;
