import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authResponseSchema } from '../../../shared/schemas/auth';
import { errorSchema, messageSchema } from '../../../shared/schemas/common';
import {
  discordEnabledSchema,
  discordLinkBodySchema,
  discordSignupBodySchema,
  discordSignupInfoBodySchema,
  discordSignupInfoSchema,
  discordStartBodySchema,
  discordStartSchema,
  setPasswordBodySchema,
} from '../../../shared/schemas/discord';
import { DISCORD_MSG } from '../../../shared/discord';
import { currentUser, requireUser } from '../../plugins/auth';
import { limitPerIpAndUsername, type RateLimitSettings } from '../../plugins/rate-limits';
import type { Config } from '../../config';
import { askedLocale } from '../../lib/request-locale';
import { clientKey, clientNetwork } from '../../lib/network';
import { toApiUser } from '../users';
import { setRefreshCookie, type AuthService, type SessionGrant } from '../auth';
import type { DiscordService } from './discord.service';

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The cookie that binds an authorization to the browser that started it: sent back only to the callback. */
const BINDING_COOKIE = 'rp_discord';
const BINDING_PATH = '/api/auth/discord/callback';
/** The cookie that binds a sign-up to the browser Discord sent back: sent only to the sign-up calls. */
const SIGNUP_COOKIE = 'rp_discord_signup';
const SIGNUP_PATH = '/api/auth/discord/signup';

function cookie(name: string, value: string, path: string, maxAgeSeconds: number, secure: boolean): string {
  // Lax, not Strict: the callback is a top-level navigation that comes from Discord's site.
  const attributes = [`Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])];
  return `${name}=${value}; ${attributes.join('; ')}`;
}

function readCookie(request: FastifyRequest, wanted: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === wanted) {
      const value = rest.join('=');
      return /^[\w-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

interface Deps {
  discord: DiscordService;
  auth: AuthService;
  rateLimits: RateLimitSettings;
  config: Pick<Config, 'publicUrl'>;
}

/** Sign in with Discord, sign up from it, link and unlink it, and a first password for its accounts. */
export const discordRoutes =
  ({ discord, auth, rateLimits, config }: Deps): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const secure = config.publicUrl.startsWith('https://');
    const grant = (reply: FastifyReply, { user, token, refreshToken }: SessionGrant) => {
      setRefreshCookie(reply, refreshToken, config.publicUrl);
      return { user: toApiUser(user), token };
    };
    // Each start stores a row and each sign-up a user: limited per client like logins and registrations.
    const perClient = (action: string, limit: RateLimitSettings['loginPerIp']) =>
      limitPerIpAndUsername(app, action, limit, limit, (request) => clientKey(request.ip));
    const userKey = async (request: FastifyRequest) => String((await currentUser(request))?.id ?? 'anonymous');

    r.get('/auth/discord', {
      schema: { tags: ['accounts'], response: { 200: discordEnabledSchema } },
      handler: async () => ({ enabled: discord.enabled() }),
    });

    const start =
      (intent: 'login' | 'link') =>
      async (
        request: FastifyRequest<{ Body: { returnTo?: string | undefined; currentPassword?: string | undefined } }>,
        reply: FastifyReply,
      ) => {
        const actor = intent === 'link' ? await requireUser(request) : undefined;
        const { url, binding } = await discord.start(intent, request.body.returnTo, actor, request.body.currentPassword);
        reply.header('set-cookie', cookie(BINDING_COOKIE, binding, BINDING_PATH, 600, secure));
        return { url };
      };

    r.post('/auth/discord/start', {
      schema: {
        tags: ['accounts'],
        description: 'The Discord authorization URL to send the browser to; binds the authorization to this browser with a cookie.',
        body: discordStartBodySchema,
        response: { 200: discordStartSchema, ...errors },
      },
      preHandler: perClient('discord-start', rateLimits.loginPerIp),
      handler: start('login'),
    });

    // The current password is checked here: its guesses are limited as the password change's
    // are, per account as well as per client, so a stolen session tries few from many addresses.
    r.post('/users/discord/link', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], body: discordLinkBodySchema, response: { 200: discordStartSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'change-password', rateLimits.passwordChangePerIp, rateLimits.passwordChangePerUser, userKey),
      handler: start('link'),
    });

    r.get('/auth/discord/callback', {
      schema: {
        tags: ['accounts'],
        description: 'Where Discord sends the browser back: signs in, starts a sign-up or links, then redirects.',
      },
      preHandler: perClient('discord-callback', rateLimits.loginPerIp),
      handler: async (request, reply) => {
        const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
        const outcome = await discord.callback(query, readCookie(request, BINDING_COOKIE), clientNetwork(request.ip));
        const cookies = [cookie(BINDING_COOKIE, '', BINDING_PATH, 0, secure)];
        // A sign-up may be finished only by this browser: the page's two calls carry this cookie.
        if (outcome.signupBinding) cookies.push(cookie(SIGNUP_COOKIE, outcome.signupBinding, SIGNUP_PATH, 1800, secure));
        reply.header('set-cookie', cookies);
        if (outcome.session) setRefreshCookie(reply, outcome.session.refreshToken, config.publicUrl);
        return reply.header('cache-control', 'no-store').redirect(outcome.redirect, 303);
      },
    });

    r.post('/auth/discord/signup/info', {
      schema: { tags: ['accounts'], body: discordSignupInfoBodySchema, response: { 200: discordSignupInfoSchema, ...errors } },
      handler: async (request) => discord.pending(request.body.token, readCookie(request, SIGNUP_COOKIE)),
    });

    r.post('/auth/discord/signup', {
      schema: { tags: ['accounts'], body: discordSignupBodySchema, response: { 201: authResponseSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'register', rateLimits.registerPerIp, rateLimits.registerPerUsername, undefined, {
        perNetwork: rateLimits.registerPerNetworkHour,
      }),
      handler: async (request, reply) => {
        const { token, username, role } = request.body;
        const created = await discord.complete(
          token,
          readCookie(request, SIGNUP_COOKIE),
          { username, role },
          clientNetwork(request.ip),
          askedLocale(request.url, request.headers),
        );
        return reply.code(201).send(grant(reply, created));
      },
    });

    r.delete('/users/discord', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], response: { 200: messageSchema, ...errors } },
      handler: async (request) => {
        await discord.unlink(await requireUser(request));
        return { message: DISCORD_MSG.unlinked };
      },
    });

    r.post('/users/set-password', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], body: setPasswordBodySchema, response: { 200: authResponseSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'change-password', rateLimits.passwordChangePerIp, rateLimits.passwordChangePerUser, userKey),
      handler: async (request, reply) => grant(reply, await auth.setFirstPassword(await requireUser(request), request.body.newPassword)),
    });
  };
