import { mailText } from '../../i18n/mail-text';
import { serverT } from '../../i18n/translate';
import type { FastifyBaseLogger } from 'fastify';
import type { InTransaction, Tx } from '../../db/transaction';
import type { ClaimAnswer } from '../../db/schema';
import type { Mailer } from '../../adapters/mailer';
import type { GameStatus } from '../../adapters/game-query';
import { isUniqueViolation } from '../../errors';
import type { GameStatusRepository } from './game-status.repository';
import type { ClaimRow, GameClaimsRepository } from './game-claims.repository';
import { answeredColumns, askGame, pollSample, roundHoldMs, type GameQuery, type PollSettings } from './game-poller.service';
import { codeFound, newClaimCode } from './claim-code';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** What claims need: both repositories, transactions, a clock, the poll settings and query, and a way to tell owners. */
export interface ClaimsDeps {
  repo: GameStatusRepository;
  claims: GameClaimsRepository;
  inTransaction: InTransaction;
  now: () => Date;
  settings: PollSettings;
  query: GameQuery;
  /** Mails the owner whose listing lost an address (optional: tests of other things leave it out). */
  mailer?: Mailer;
  publicUrl?: string;
  /** A verified address moved onto or off a listing: its public numbers changed. */
  onAddressChanged: () => void;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * When the poller checks a pending claim next: at the poll interval for its first day (backing off
 * while the server does not answer), hourly for a week, then only when its owner presses "Check
 * now" (a listing nobody proves must not make us ask someone else's game server forever).
 */
export function nextClaimCheck(createdAt: Date, at: Date, intervalMs: number, failures = 0): Date | null {
  const age = at.getTime() - createdAt.getTime();
  if (age >= 7 * DAY) return null;
  // A claim whose server does not answer is asked less often, doubling up to an hour, like a listing.
  const wait = Math.min(intervalMs * 2 ** Math.min(failures, 5), HOUR);
  return new Date(at.getTime() + (age < DAY ? wait : Math.max(wait, HOUR)));
}

/** What the game answered, as the owner sees it on the dashboard (offline after as many failures as a listing). */
function answerOf(asked: Awaited<ReturnType<typeof askGame>>, failures: number, offlineAfter: number): ClaimAnswer {
  const r = asked.result;
  return r
    ? { online: true, players: r.players, maxPlayers: r.maxPlayers, seen: r.seen ?? [], error: null }
    : { online: failures >= offlineAfter ? false : null, players: null, maxPlayers: null, seen: [], error: asked.error };
}

/**
 * Claims of game addresses (docs/decisions/051-game-address-claims.md): a listing's address is
 * pending until the game reports the claim's code in a field only its operator can set; then it is
 * verified, copied onto the listing (the only place public pages read live numbers from), and
 * taken from any other listing that had it.
 */
export function gameClaimsService(deps: ClaimsDeps) {
  const { repo, claims, inTransaction, now, settings, query, mailer, publicUrl, onAddressChanged, log } = deps;

  /** Tells an owner their listing lost its address: in the inbox (in `tx`), and by mail once committed. */
  const lostNotice = async (serverId: number, reason: 'superseded' | 'revoked' | 'moved', tx: Tx) => {
    const owner = await claims.owner(serverId, tx);
    if (!owner) return undefined;
    // In the owner's language: the inbox notice is stored as written, and the e-mail follows it.
    const t = serverT(owner.locale);
    const title = t('notice.claimLost.title', { server: owner.name });
    const message = t(`notice.claimLost.${reason}`);
    const link = `/dashboard/${serverId}`;
    await claims.notify(owner.ownerId, { title, message, link }, tx);
    return owner.email && owner.emailConfirmedAt
      ? { to: owner.email, username: owner.username, locale: owner.locale, title, message, link }
      : undefined;
  };

  const mail = (
    notices: Array<{ to: string; username: string; locale: string | null; title: string; message: string; link: string } | undefined>,
  ) => {
    for (const n of notices) {
      if (!n || !mailer) continue;
      void mailer
        .send({
          to: n.to,
          subject: n.title,
          text: mailText(serverT(n.locale), n.username, `${n.message}\n\n${publicUrl ?? ''}${n.link}`),
        })
        .catch((err: unknown) => log?.warn({ err }, 'mailing a claim notice failed'));
    }
  };

  /**
   * Ends a verified claim (superseded or revoked) in `tx`: the listing loses the address and the
   * history taken from it, and gets a new pending claim of the same address with a new code.
   */
  const takeAway = async (
    earlier: ClaimRow,
    reason: 'superseded' | 'revoked' | 'moved',
    at: Date,
    tx: Tx,
    by: { endedBy?: number; supersededBy?: number; ip?: string } = {},
  ) => {
    const { ip, ...ended } = by;
    await claims.end(earlier.id, reason === 'moved' ? 'changed' : reason, at, tx, ended);
    await repo.disconnectGame(earlier.serverId, tx);
    // The history was taken from an address proven by someone else, or revoked; a moved name keeps its own.
    if (reason !== 'moved') await repo.deleteSamples(earlier.serverId, tx);
    await claims.insert(
      {
        serverId: earlier.serverId,
        game: earlier.game,
        host: earlier.host,
        hostKey: earlier.hostKey,
        port: earlier.port,
        ip: ip ?? earlier.ip,
        cfxCode: earlier.cfxCode,
        code: newClaimCode(),
        nextCheckAt: new Date(at.getTime() + settings.intervalMs),
      },
      tx,
    );
    return lostNotice(earlier.serverId, reason, tx);
  };

  /**
   * Verifies a pending claim whose code the game reported: one transaction moves the address from
   * any other listing, marks the claim and writes the answer onto the listing as a first poll.
   * False when the claim changed meanwhile, or another listing verified the address at the same moment.
   */
  const verify = async (claim: ClaimRow, ip: string, result: GameStatus, at: Date): Promise<boolean> => {
    let notices: Awaited<ReturnType<typeof lostNotice>>[] = [];
    let done: boolean;
    try {
      done = await inTransaction(async (tx) => {
        // Listings' rows first, in id order, then claims: the order every change of an address takes.
        const others = await claims.sameAddressVerified(claim, ip, tx, false);
        await repo.lockServers([claim.serverId, ...others.map((o) => o.serverId)], tx);
        const current = await claims.byId(claim.id, tx, true);
        if (!current || current.status !== 'pending' || current.code !== claim.code) return false;
        notices = [];
        for (const earlier of await claims.sameAddressVerified(current, ip, tx)) {
          notices.push(await takeAway(earlier, 'superseded', at, tx, { supersededBy: current.id }));
        }
        await claims.markVerified(current.id, ip, at, tx);
        const next = new Date(at.getTime() + settings.intervalMs);
        await repo.connectGame(
          current.serverId,
          { game: current.game, gameHost: current.host, gamePort: current.port, cfxCode: current.cfxCode },
          next,
          tx,
        );
        await repo.savePoll(
          current.serverId,
          { game: current.game, gameHost: current.host, gamePort: current.port },
          { lastPolledAt: at, nextPollAt: next, pollFailures: 0, pollError: null, ...answeredColumns(result, at) },
          tx,
        );
        if (result.flag) await claims.flagVerified(current.serverId, result.flag, at, tx);
        await repo.addSample(pollSample(current.serverId, at, result), tx);
        return true;
      });
    } catch (error) {
      // Two listings proved the same address at once: the other won; this one stays pending.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    if (done) {
      onAddressChanged();
      mail(notices);
    }
    return done;
  };

  /** Asks the game for a pending claim, keeps what it answered, and verifies the claim when its code is there. */
  const check = async (claim: ClaimRow): Promise<{ verified: boolean }> => {
    const at = now();
    const asked = await askGame(settings, query, { game: claim.game, host: claim.host, port: claim.port });
    const failures = asked.result ? 0 : claim.checkFailures + 1;
    const answer = answerOf(asked, failures, settings.offlineAfter);
    await claims.saveCheck(claim.id, {
      at,
      answer,
      failures,
      nextCheckAt: nextClaimCheck(claim.createdAt, at, settings.intervalMs, failures),
      flag: asked.result?.flag ?? null,
    });
    if (!asked.result || !asked.ip || !codeFound(claim.code, answer.seen)) return { verified: false };
    return { verified: await verify(claim, asked.ip, asked.result, at) };
  };

  return {
    check,

    /** One round of the poller over pending claims: claims up to `limit` due ones and checks them. */
    async checkDue(limit = 20): Promise<number> {
      // Held long enough for the whole round (a batch that never answers takes limit / concurrency lookups and queries).
      const queue = await claims.claimDue(limit, new Date(now().getTime() + roundHoldMs(settings, limit)), now());
      const claimed = queue.length;
      const workers = Array.from({ length: Math.min(settings.concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await check(next);
      });
      await Promise.all(workers);
      return claimed;
    },

    /** An admin revokes a verification: the listing loses the address and must prove it again. */
    async revoke(adminId: number, claim: ClaimRow): Promise<boolean> {
      const at = now();
      const notice = await inTransaction(async (tx) => {
        await repo.lockServers([claim.serverId], tx);
        const current = await claims.byId(claim.id, tx, true);
        if (!current || current.status !== 'verified') return null;
        return takeAway(current, 'revoked', at, tx, { endedBy: adminId });
      });
      if (notice === null) return false;
      onAddressChanged();
      mail([notice]);
      return true;
    },

    /**
     * A verified address's name now resolves away from the IP it was proven at: the proof no longer
     * stands (someone could point the name at another server and borrow its numbers). The listing
     * loses the address and gets a pending claim of the name at its new IP, with a new code.
     */
    async proofMoved(serverId: number, ip: string): Promise<void> {
      const at = now();
      const notice = await inTransaction(async (tx) => {
        await repo.lockServers([serverId], tx);
        const current = await claims.live(serverId, tx, true);
        if (!current || current.status !== 'verified') return null;
        return takeAway(current, 'moved', at, tx, { ip });
      });
      if (notice === null) return;
      onAddressChanged();
      mail([notice]);
    },
  };
}

export type GameClaimsService = ReturnType<typeof gameClaimsService>;
