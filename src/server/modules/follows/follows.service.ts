import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '../../../shared/i18n/locales';
import { serverT } from '../../i18n/translate';
import type { UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound, tooMany } from '../../errors';
import { toApiId } from '../../lib/ids';
import { serverPolicy } from '../../policies/servers.policy';
import type { PushSender } from '../../adapters/web-push';
import type { FollowsRepository } from './follows.repository';

/** Events one server may announce per day: followers are told each one. */
export const EVENTS_PER_DAY = 3;
const FOLLOWED_LIMIT = 100;

/** Followers' browsers are pushed to in pages of this many subscriptions. */
const PUSH_PAGE = 100;
const DAY_MS = 24 * 3600_000;

interface Deps {
  repository: FollowsRepository;
  now: () => Date;
  /** Web push to followers' browsers, next to the inbox notice (none: inbox only). */
  push?: PushSender;
  log?: { warn: (details: object, message: string) => void };
}

/**
 * Following servers (docs/decisions/033-follows.md): a player follows listed servers and gets an
 * inbox notice, and a web push on every browser they allowed it on, when one comes back online or
 * its owner announces an event; `/profile` lists them with their live status.
 */
export function followsService({ repository, now, push, log }: Deps) {
  /**
   * Pushes a notice to every browser of the server's followers, after the inbox notice is stored.
   * Best effort: a failed push is logged, a subscription the push service says is gone is dropped;
   * the inbox keeps the notice either way.
   */
  const pushToFollowers = async (
    serverId: number,
    payloadFor: (locale: string | null) => { title: string; body: string; url: string; tag: string },
  ) => {
    if (!push) return;
    let afterId = 0;
    let failed = 0;
    for (;;) {
      const page = await repository.followerPushTargets(serverId, afterId, PUSH_PAGE);
      for (const target of page) {
        const outcome = await push.send(target, payloadFor(target.locale), 6 * 3600);
        if (outcome === 'gone') await repository.deleteSubscription(Number(target.id));
        else if (outcome === 'failed') failed++;
      }
      if (page.length < PUSH_PAGE) break;
      afterId = Number(page[page.length - 1]!.id);
    }
    if (failed > 0) log?.warn({ serverId, failed }, 'some pushes to followers failed');
  };
  /** The inbox notice and push of every follower, each in their language (`noticeIn` writes one language's). */
  const notifyFollowers = async (
    serverId: number,
    noticeIn: (locale: Locale) => { title: string; message: string },
    link: string,
    tag: string,
  ) => {
    const notices = Object.fromEntries(LOCALES.map((l) => [l, noticeIn(l)])) as Record<Locale, { title: string; message: string }>;
    await repository.noticeToFollowers(serverId, notices, link);
    const payloadFor = (locale: string | null) => {
      const notice = notices[isLocale(locale) ? locale : DEFAULT_LOCALE];
      return { title: notice.title.slice(0, 120), body: notice.message.slice(0, 300), url: link, tag };
    };
    void pushToFollowers(serverId, payloadFor).catch((err: unknown) => log?.warn({ err, serverId }, 'pushing to followers failed'));
  };

  const listed = async (serverId: number) => {
    const server = await repository.findServer(serverId);
    if (!server || server.hidden) throw notFound(MSG.serverNotFound);
    return server;
  };

  return {
    async follow(actor: UserRow, serverId: number) {
      await listed(serverId);
      await repository.follow(actor.id, serverId);
      return { following: true, followers: await repository.followers(serverId) };
    },

    async unfollow(actor: UserRow, serverId: number) {
      await listed(serverId);
      await repository.unfollow(actor.id, serverId);
      return { following: false, followers: await repository.followers(serverId) };
    },

    async state(actor: UserRow | undefined, serverId: number) {
      await listed(serverId);
      return {
        following: actor ? await repository.isFollowing(actor.id, serverId) : false,
        followers: await repository.followers(serverId),
      };
    },

    async followed(actor: UserRow) {
      const rows = await repository.followed(actor.id, now(), FOLLOWED_LIMIT);
      return rows.map((r) => ({
        id: toApiId(Number(r.id)),
        name: r.name,
        profilePicture: r.profilePicture,
        online: r.online,
        currentPlayers: r.currentPlayers,
        maxPlayers: r.maxPlayers,
        followedAt: r.followedAt.toISOString(),
        nextEvent: r.nextEvent
          ? (({ title, startsAt }: { title: string; startsAt: string }) => ({ title, startsAt: new Date(startsAt).toISOString() }))(
              JSON.parse(r.nextEvent),
            )
          : null,
      }));
    },

    /** 404 for a server that is not listed, 403 for anyone but its owner (routes ask before reading a body). */
    async assertOwner(actor: UserRow, serverId: number): Promise<void> {
      serverPolicy.assertCanManage(actor, await listed(serverId));
    },

    /** An owner announces an event: stored, and every follower gets an inbox notice. */
    async announce(actor: UserRow, serverId: number, body: { title: string; details: string; startsAt: string }) {
      const server = await listed(serverId);
      serverPolicy.assertCanManage(actor, server);
      const startsAt = new Date(body.startsAt);
      const at = now();
      if (startsAt.getTime() < at.getTime() - 3600_000) throw badRequest('The event must start in the future.');
      const { stored: event, oldest } = await repository.insertEventCapped(
        { serverId, title: body.title, details: body.details, startsAt },
        new Date(at.getTime() - DAY_MS),
        EVENTS_PER_DAY,
      );
      if (!event) {
        // Too many today: 429, with when the oldest of them leaves the day.
        const wait = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - at.getTime()) / 1000));
        throw tooMany(wait, `A server can announce at most ${EVENTS_PER_DAY} events a day.`);
      }
      const startText = startsAt.toISOString().slice(0, 16).replace('T', ' ');
      await notifyFollowers(
        serverId,
        (locale) => ({
          title: `${server.name}: ${body.title}`,
          message: `${body.details ? `${body.details} ` : ''}${serverT(locale)('notice.event.starts', { at: startText })}`,
        }),
        `/servers/${serverId}`,
        `event-${event.id}`,
      );
      return { id: toApiId(Number(event.id)), title: event.title, details: event.details, startsAt: event.startsAt.toISOString() };
    },

    async events(serverId: number) {
      await listed(serverId);
      const rows = await repository.upcomingEvents(serverId, now());
      return rows.map((e) => ({ id: toApiId(Number(e.id)), title: e.title, details: e.details, startsAt: e.startsAt.toISOString() }));
    },

    /** The poller saw a server answer again after it was offline: its followers hear of it. */
    async backOnline(serverId: number): Promise<void> {
      const server = await repository.findServer(serverId);
      if (!server || server.hidden) return;
      await notifyFollowers(
        serverId,
        (locale) => {
          const t = serverT(locale);
          return { title: t('notice.backOnline.title', { server: server.name }), message: t('notice.backOnline.message') };
        },
        `/servers/${serverId}`,
        `online-${serverId}`,
      );
    },
  };
}

/** Follows, as routes and the poller receive them. */
export type FollowsService = ReturnType<typeof followsService>;
