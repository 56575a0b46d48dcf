import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { InTransaction } from '../db/transaction';
import type { Mailer } from '../adapters/mailer';
import { discordOAuth } from '../adapters/discord-oauth';
import type { AuthService } from '../modules/auth';
import type { UsersRepository } from '../modules/users';
import { discordRepository, discordService } from '../modules/discord';

/** Sign in with Discord: its client only when the site has a Discord application (else every route answers 404). */
export function discordFor(
  app: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    config: Config;
    users: UsersRepository;
    auth: AuthService;
    inTransaction: InTransaction;
    mailer: Mailer;
    now: () => Date;
  },
  timeoutMs = 8000,
) {
  const { db, config, ...rest } = deps;
  return discordService({
    ...rest,
    repo: discordRepository(db),
    onMailError: (err) => app.log.error({ err }, 'e-mail failed'),
    client: config.discord
      ? discordOAuth({ ...config.discord, redirectUri: `${config.publicUrl}/api/auth/discord/callback`, timeoutMs })
      : undefined,
  });
}
