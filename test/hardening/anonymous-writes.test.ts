import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/factories';
import { startPushEndpoint } from '../helpers/push-endpoint';
import { DEFAULT_RATE_LIMITS } from '../../src/server/plugins/rate-limits';
import { DEFAULT_COUNTING } from '../../src/server/modules/servers/audience-counter';
import { PUSH_SUBSCRIPTIONS_PER_USER } from '../../src/server/modules/notifications/notifications.service';
import { report, scale } from './report';

const AREA = 'Anonymous writes';
const randomUa = () =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + crypto.randomInt(30)}.0.${crypto.randomInt(9999)}.0 Safari/537.36 ${crypto.randomBytes(4).toString('hex')}`;
const pick = <T>(items: readonly T[]) => items[crypto.randomInt(items.length)]!;

/** Counted views one network may add per hour: small in the bounded run, the real setting in full. */
const VIEW_ALLOWANCE = scale(20, DEFAULT_COUNTING.viewsPerNetworkHour);

let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
let t: TestApp;
let ownerId: number;
beforeAll(async () => {
  endpoint = await startPushEndpoint();
  // The production page cache: counting must work on cached reads too.
  t = await createTestApp({
    env: { PUSH_ENDPOINT_HOSTS: endpoint.host },
    build: { listCacheTtlMs: 5000, counting: { flushMs: 0, viewsPerNetworkHour: VIEW_ALLOWANCE } },
  });
  ownerId = (await createUser(t.app, { role: 'server_owner' })).row.id;
});
afterAll(async () => {
  await t?.close();
  await endpoint?.close();
});

describe('views and popular-filter searches cannot be inflated by one client', () => {
  const newServers = async (n: number) =>
    (
      await t.app.ctx.db
        .insertInto('servers')
        .values(Array.from({ length: n }, (_, i) => ({ ownerId, name: `Hardening ${crypto.randomUUID().slice(0, 8)} ${i}` })))
        .returning('id')
        .execute()
    ).map((r) => r.id);
  const storedViews = async (ids: number[]) => {
    await t.app.ctx.discovery.flushCounts();
    const counters = await t.app.ctx.db.selectFrom('servers').select('views').where('id', 'in', ids).execute();
    const rows = await t.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', 'in', ids).execute();
    const views = counters.reduce((sum, r) => sum + r.views, 0);
    expect(views, 'the views counter equals the counted rows').toBe(rows.length);
    return views;
  };

  it('filtered searches from one network with random User-Agents count once per filter', async () => {
    const filters = ['Whitelisted', 'English', 'Serious RP'];
    const tried = scale(200, 1000);
    // Searches of earlier tests may still be queued.
    await t.app.ctx.discovery.flushCounts();
    const before = await t.app.ctx.db
      .selectFrom('searchLog')
      .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('id'))
      .executeTakeFirstOrThrow();
    for (let i = 0; i < tried; i++) {
      const chosen = filters.filter(() => crypto.randomInt(2) === 1);
      const res = await t.app.inject({
        url: `/api/servers?filters=${encodeURIComponent((chosen.length ? chosen : [pick(filters)]).join(','))}`,
        remoteAddress: `198.51.100.${1 + crypto.randomInt(254)}`,
        headers: { 'user-agent': randomUa() },
      });
      expect(res.statusCode).toBe(200);
    }
    await t.app.ctx.discovery.flushCounts();
    const rows = await t.app.ctx.db.selectFrom('searchLog').select('filter').where('id', '>', before.id).execute();
    const perFilter = new Map<string, number>();
    for (const r of rows) perFilter.set(r.filter, (perFilter.get(r.filter) ?? 0) + 1);
    const gotThrough = [...perFilter.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    report({
      area: AREA,
      check: `${tried} filtered searches from one /24 with random User-Agents → counted ≤ 1 per filter`,
      tried,
      gotThrough,
      detail: `${rows.length} rows for ${perFilter.size} filters`,
    });
    expect(gotThrough).toBe(0);
  });

  it('a server viewed with many User-Agents from many addresses of one /24 gets one view', async () => {
    const [id] = await newServers(1);
    const tried = scale(100, 500);
    for (let i = 0; i < tried; i++) {
      await t.app.inject({
        url: `/api/servers/${id}`,
        remoteAddress: `203.0.113.${1 + (i % 50)}`,
        headers: { 'user-agent': randomUa() },
      });
    }
    const gotThrough = Math.max(0, (await storedViews([id!])) - 1);
    report({ area: AREA, check: `views with ${tried} User-Agents / 50 addresses in one /24 → 1 view`, tried, gotThrough });
    expect(gotThrough).toBe(0);
  });

  it('a server viewed from many IPv6 addresses of one /64 gets one view', async () => {
    const [id] = await newServers(1);
    const tried = scale(100, 500);
    const hex = () => crypto.randomInt(0x10000).toString(16);
    for (let i = 0; i < tried; i++) {
      await t.app.inject({
        url: `/api/servers/${id}`,
        remoteAddress: `2001:db8:aa:bb:${hex()}:${hex()}:${hex()}:${hex()}`,
        headers: { 'user-agent': randomUa() },
      });
    }
    const gotThrough = Math.max(0, (await storedViews([id!])) - 1);
    report({ area: AREA, check: `views from ${tried} IPv6 addresses in one /64 → 1 view`, tried, gotThrough });
    expect(gotThrough).toBe(0);
  });

  it('robots that say so count no views', async () => {
    const [id] = await newServers(1);
    const robots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
      'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1)',
      'WhatsApp/2.23.20.0',
      'curl/8.5.0',
      'python-requests/2.31.0',
    ];
    // Each from a network of its own, so only the robot rule can keep them out.
    for (const [i, ua] of robots.entries()) {
      await t.app.inject({
        url: `/api/servers/${id}`,
        remoteAddress: `100.64.${i}.1`,
        headers: { 'user-agent': ua },
      });
    }
    const gotThrough = await storedViews([id!]);
    report({ area: AREA, check: 'crawler User-Agents → 0 views', tried: robots.length, gotThrough });
    expect(gotThrough).toBe(0);
  });

  it('one network viewing many servers is held to its hourly allowance', async () => {
    const allowance = VIEW_ALLOWANCE;
    const ids = await newServers(allowance * 2);
    for (const [i, id] of ids.entries()) {
      await t.app.inject({ url: `/api/servers/${id}`, remoteAddress: `10.77.3.${1 + (i % 200)}`, headers: { 'user-agent': randomUa() } });
    }
    const gotThrough = Math.max(0, (await storedViews(ids)) - allowance);
    report({
      area: AREA,
      check: `one /24 viewing ${ids.length} servers in an hour → ≤ ${allowance} counted`,
      tried: ids.length,
      gotThrough,
    });
    expect(gotThrough).toBe(0);
  });
});

describe('push subscriptions per user', () => {
  it('a user registering many browsers at once keeps 10', async () => {
    const user = await createUser(t.app);
    const tried = scale(40, 100);
    const results = await Promise.all(
      Array.from({ length: tried }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/push/subscribe',
          headers: user.headers,
          payload: { subscription: endpoint.subscription() },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    const kept = (await t.app.ctx.db.selectFrom('pushSubscriptions').select('id').where('userId', '=', user.row.id).execute()).length;
    const gotThrough = Math.max(0, kept - PUSH_SUBSCRIPTIONS_PER_USER);
    report({
      area: AREA,
      check: `push endpoints registered by one user ×${tried} at once → ${PUSH_SUBSCRIPTIONS_PER_USER} kept`,
      tried,
      gotThrough,
    });
    expect(kept).toBe(PUSH_SUBSCRIPTIONS_PER_USER);
  });

  it('a registration burst gets 429 past the per-user and per-client limits', async () => {
    const perUser = DEFAULT_RATE_LIMITS.pushSubscribePerUser.max;
    const perIp = DEFAULT_RATE_LIMITS.pushSubscribePerIp.max;
    const limited = await createTestApp({
      env: { PUSH_ENDPOINT_HOSTS: endpoint.host },
      build: {
        rateLimits: {
          pushSubscribePerIp: DEFAULT_RATE_LIMITS.pushSubscribePerIp,
          pushSubscribePerUser: DEFAULT_RATE_LIMITS.pushSubscribePerUser,
        },
      },
    });
    try {
      const register = (user: { headers: object }, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/push/subscribe',
          headers: user.headers as Record<string, string>,
          remoteAddress,
          payload: { subscription: endpoint.subscription() },
        });
      const burst = scale(perUser * 2, perUser * 10);
      const user = await createUser(limited.app);
      const own = await Promise.all(Array.from({ length: burst }, (_, i) => register(user, `10.20.${i % 250}.1`)));
      const ownThrough = Math.max(0, own.filter((r) => r.statusCode === 201).length - perUser);
      expect(own.filter((r) => r.statusCode === 429).every((r) => Number(r.headers['retry-after']) > 0)).toBe(true);

      // Many accounts from one address: the address's own limit.
      const users = await Promise.all(Array.from({ length: Math.ceil((perIp * 2) / perUser) }, () => createUser(limited.app)));
      const shared = await Promise.all(Array.from({ length: perIp * 2 }, (_, i) => register(users[i % users.length]!, '10.30.0.7')));
      const sharedThrough = Math.max(0, shared.filter((r) => r.statusCode === 201).length - perIp);
      report({
        area: AREA,
        check: `push registration burst → 429 (one user ×${burst}: ≤ ${perUser}; one address ×${perIp * 2}: ≤ ${perIp})`,
        tried: burst + perIp * 2,
        gotThrough: ownThrough + sharedThrough,
      });
      expect(ownThrough + sharedThrough).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
