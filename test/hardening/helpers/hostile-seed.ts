import type { FastifyInstance } from 'fastify';
import { createUser, uniqueName, type TestUser } from '../../helpers/factories';

/** Strings that run script (or corrupt the page) if any page renders them as HTML or as a link. */
export const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '</title><script>alert(1)</script>',
  '{{constructor.constructor("alert(1)")()}}',
  '${alert(1)}<iframe src="javascript:alert(1)">',
  '\'-alert(1)-\'<a href="javascript:alert(1)">x</a>',
  // Replacement patterns: text passed through `String.replace` as the replacement expands them.
  "$' $& $` $$</script><script>alert(1)</script>",
];

/** Everything the hostile seed made, for the pages to visit. */
export interface HostileWorld {
  admin: TestUser;
  owner: TestUser;
  player: TestUser;
  serverIds: number[];
}

const at = (i: number) => XSS_PAYLOADS[i % XSS_PAYLOADS.length]!;

/**
 * Stores the payloads wherever users write text: server names, status messages, bios, reviews,
 * display names, notifications (title, message, a `javascript:` link), testimonials, reports,
 * an e-mail campaign, and the game-status columns the poller fills. Rows are written directly:
 * the point is what the pages do with hostile text, whatever a route would have let through.
 */
export async function seedHostileWorld(app: FastifyInstance): Promise<HostileWorld> {
  const { db } = app.ctx;
  const admin = await createUser(app, { role: 'admin' });
  const owner = await createUser(app, { role: 'server_owner', plan: 'Premium' });
  const player = await createUser(app, { role: 'player' });
  await db
    .updateTable('users')
    .set({ displayName: at(1) })
    .where('id', '=', owner.row.id)
    .execute();
  await db
    .updateTable('users')
    .set({ displayName: at(2) })
    .where('id', '=', player.row.id)
    .execute();
  const serverIds: number[] = [];
  for (let i = 0; i < XSS_PAYLOADS.length; i++) {
    const server = await db
      .insertInto('servers')
      .values({
        ownerId: owner.row.id,
        name: `${at(i)} #${i}`.slice(0, 100),
        statusMessage: at(i + 1),
        bio: `${at(i + 2)}\n${at(i + 3)}`,
        // Never accepted by the API (discord.gg links only); stored anyway to see that no page links it.
        discordLink: 'javascript:alert(1)',
        likes: 100 - i,
        currentPlayers: 10 + i,
        maxPlayers: 64,
        game: 'fivem',
        gameHost: '203.0.113.7',
        gamePort: 30120,
        online: i % 2 === 0,
        lastSeenAt: new Date(),
        lastPolledAt: new Date(),
        // What a game server answered ends up here (the poller's error text): hostile as well.
        pollError: i % 2 === 0 ? null : at(i + 4),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    serverIds.push(server.id);
  }
  const first = serverIds[0]!;
  for (let i = 0; i < 3; i++) {
    const voter = i === 0 ? player : await createUser(app, { role: 'player', username: uniqueName('voter') });
    if (i > 0)
      await db
        .updateTable('users')
        .set({ displayName: at(i + 3) })
        .where('id', '=', voter.row.id)
        .execute();
    const vote = await db
      .insertInto('votes')
      .values({ userId: voter.row.id, serverId: first, type: 'like', review: at(i) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('reports')
      .values({ reporterId: voter.row.id, serverId: first, voteId: vote.id, reason: at(i + 5) })
      .execute();
    await db
      .insertInto('joins')
      .values({ userId: voter.row.id, serverId: serverIds[i + 1]! })
      .execute();
  }
  for (const user of [player, owner]) {
    await db
      .insertInto('notifications')
      .values([
        { userId: user.row.id, title: at(0), message: at(1), link: 'javascript:alert(1)' },
        { userId: user.row.id, title: at(3), message: at(2), link: at(2) },
      ])
      .execute();
  }
  await db
    .insertInto('testimonials')
    .values({ ownerId: owner.row.id, content: at(0) })
    .execute();
  await db
    .insertInto('emailCampaigns')
    .values({ createdBy: admin.row.id, subject: at(3), content: at(1), target: 'players', status: 'done' })
    .execute();
  return { admin, owner, player, serverIds };
}
