import type { FastifyRequest } from 'fastify';

/**
 * What one app knows of the tokens that routes checking the account in their own statement
 * (`accountCheckedByStatement`) let past their hook: such a route counts a request against its
 * account's rate limits before its statement tells whether the account still accepts the token
 * (docs/decisions/068-sign-in-check-in-the-vote.md).
 *
 * - A token the statement refused is remembered by its signature and refused from then on before
 *   anything reads or counts it: a stolen token cannot keep using up its victim's vote limits
 *   after the victim logged out or changed the password. Never wrong to remember: an ended
 *   session, an older token version and a deleted account never come back.
 * - A token's requests take turns: each waits until the one before it has been answered, so a
 *   burst sent with a refused token is counted once, not once per request in flight.
 */
interface Known {
  signedOut: Set<string>;
  /** By signature: the answer of the latest request of the token that has one in flight. */
  turns: Map<string, Promise<void>>;
}

/** The most tokens an app remembers as signed out, the oldest forgotten first. */
export const SIGNED_OUT_MAX = 10_000;
/**
 * The longest a request waits for the one before it: a safety net, should a request's end never be
 * heard, so that it cannot hold its token's later requests for ever.
 */
export const TURN_WAIT_MAX_MS = 10_000;

const known = new WeakMap<object, Known>();
const releases = new WeakMap<FastifyRequest, () => void>();

function knownBy(request: FastifyRequest): Known {
  const app = request.server.ctx;
  let found = known.get(app);
  if (!found) known.set(app, (found = { signedOut: new Set(), turns: new Map() }));
  return found;
}

/** The part of a JWT that no other token shares (its signature has one canonical encoding). */
const signatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

/** Whether a statement found the account of this token no longer accepts it. */
export function isSignedOut(request: FastifyRequest, token: string): boolean {
  return knownBy(request).signedOut.has(signatureOf(token));
}

/** Remembers that the account of this token no longer accepts it. */
export function rememberSignedOut(request: FastifyRequest, token: string): void {
  const { signedOut } = knownBy(request);
  signedOut.add(signatureOf(token));
  if (signedOut.size > SIGNED_OUT_MAX) signedOut.delete(signedOut.values().next().value!);
}

/**
 * Waits until no earlier request of this token is in flight here, then holds the token's turn
 * until `endTurn(request)` (its answer decided, or the request cut short). A request that ends
 * while still waiting (its client hung up) does not let the ones after it go first: they wait
 * for its predecessors too.
 */
export async function takeTurn(request: FastifyRequest, token: string): Promise<void> {
  const { turns } = knownBy(request);
  const key = signatureOf(token);
  const before = turns.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  let timer: NodeJS.Timeout | undefined;
  // What this request waits for: the one before it, or the safety net.
  const waited = before && Promise.race([before, new Promise<void>((resolve) => (timer = setTimeout(resolve, TURN_WAIT_MAX_MS).unref()))]);
  // What the next one waits for: this request's end and everything this request waited for.
  const done = waited ? Promise.all([waited, mine]).then(() => undefined) : mine;
  turns.set(key, done);
  void done.then(() => {
    if (turns.get(key) === done) turns.delete(key);
  });
  releases.set(request, () => {
    releases.delete(request);
    release();
  });
  if (!waited) return;
  await waited;
  clearTimeout(timer);
}

/** Ends the request's turn, if it holds one (called more than once, it does nothing more). */
export function endTurn(request: FastifyRequest): void {
  releases.get(request)?.();
}
