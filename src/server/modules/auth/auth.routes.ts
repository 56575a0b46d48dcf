import { clientNetwork } from '../../lib/network';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  changePasswordBodySchema,
  confirmEmailBodySchema,
  localeBodySchema,
  loginBodySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  resetRequestBodySchema,
  updateEmailBodySchema,
  updateEmailResultSchema,
  userSchema,
} from '../../../shared/schemas/auth';
import { errorSchema, messageSchema } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import { bearer, currentUser, requireUser } from '../../plugins/auth';
import { limitLogin, limitPerIpAndUsername, type RateLimitSettings } from '../../plugins/rate-limits';
import type { Config } from '../../config';
import { clientKey } from '../../lib/network';
import { askedLocale } from '../../lib/request-locale';
import { toApiUser } from '../users';
import type { AuthService, SessionGrant } from './auth.service';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

const errors = { 400: errorSchema, 401: errorSchema, 409: errorSchema, 429: errorSchema };

interface Deps {
  auth: AuthService;
  rateLimits: RateLimitSettings;
  /** Its public URL says whether the refresh cookie is `Secure`. */
  config: Pick<Config, 'publicUrl'>;
}

/** Accounts: register, login, sessions, current user, e-mail, password change and reset. */
export const authRoutes =
  ({ auth, rateLimits, config }: Deps): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const userKey = async (request: Parameters<typeof currentUser>[0]) => String((await currentUser(request))?.id ?? 'anonymous');
    /** The access token in the body, the refresh token in its cookie. */
    const grant = (reply: FastifyReply, { user, token, refreshToken }: SessionGrant) => {
      setRefreshCookie(reply, refreshToken, config.publicUrl);
      return { user: toApiUser(user), token };
    };

    r.post('/register', {
      schema: { tags: ['accounts'], body: registerBodySchema, response: { 201: authResponseSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'register', rateLimits.registerPerIp, rateLimits.registerPerUsername, undefined, {
        perNetwork: rateLimits.registerPerNetworkHour,
      }),
      handler: async (request, reply) =>
        reply
          .code(201)
          .send(grant(reply, await auth.register(request.body, clientNetwork(request.ip), askedLocale(request.url, request.headers)))),
    });

    r.post('/login', {
      schema: { tags: ['accounts'], body: loginBodySchema, response: { 200: authResponseSchema, ...errors } },
      preHandler: limitLogin(app, rateLimits),
      handler: async (request, reply) => grant(reply, await auth.login(request.body)),
    });

    r.post('/auth/refresh', {
      schema: {
        tags: ['accounts'],
        description: 'A new access token for the refresh cookie, which is replaced too; a reused refresh token ends its session.',
        response: { 200: authResponseSchema, 401: errorSchema, 429: errorSchema },
      },
      preHandler: limitPerIpAndUsername(app, 'refresh', rateLimits.refreshPerIp, rateLimits.refreshPerIp, (request) =>
        clientKey(request.ip),
      ),
      handler: async (request, reply) => {
        const refreshToken = readRefreshCookie(request);
        try {
          if (!refreshToken) throw new Error('no refresh cookie');
          return grant(reply, await auth.refresh(refreshToken));
        } catch {
          clearRefreshCookie(reply, config.publicUrl);
          return reply.code(401).send({ error: MSG.sessionExpired });
        }
      },
    });

    // At /api/auth/logout the browser also sends the refresh cookie; /api/logout serves bearer-only clients.
    for (const url of ['/logout', '/auth/logout']) {
      r.post(url, {
        schema: {
          tags: ['accounts'],
          description: 'Ends this login session; other devices stay logged in.',
          response: { 200: messageSchema },
        },
        handler: async (request, reply) => {
          await auth.logout(bearer(request), readRefreshCookie(request));
          clearRefreshCookie(reply, config.publicUrl);
          return { message: MSG.loggedOut };
        },
      });
    }

    r.get('/user', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], response: { 200: userSchema, 401: errorSchema } },
      handler: async (request) => toApiUser(await requireUser(request)),
    });

    r.put('/users/locale', {
      config: { signedIn: true },
      schema: {
        tags: ['accounts'],
        description: "Saves the language of the user's pages and e-mails.",
        body: localeBodySchema,
        response: { 200: userSchema, 400: errorSchema, 401: errorSchema },
      },
      handler: async (request) => toApiUser(await auth.setLocale(await requireUser(request), request.body.locale)),
    });

    r.post('/users/update-email', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], body: updateEmailBodySchema, response: { 200: updateEmailResultSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'update-email', rateLimits.emailChangePerIp, rateLimits.emailChangePerUser, userKey),
      handler: async (request) => {
        const user = await requireUser(request);
        // A first or still unconfirmed address is replaced at once; a confirmed one waits for the new link.
        const first = !user.email || !user.emailConfirmedAt;
        await auth.requestEmailChange(user, request.body.email, request.body.currentPassword);
        return first ? { message: MSG.emailSaved, email: request.body.email } : { message: MSG.emailChangeSent, email: user.email };
      },
    });

    r.post('/users/confirm-email/resend', {
      config: { signedIn: true },
      schema: {
        tags: ['accounts'],
        description: "Mails the confirmation link again for the account's unconfirmed address.",
        response: { 200: messageSchema, ...errors },
      },
      preHandler: limitPerIpAndUsername(app, 'update-email', rateLimits.emailChangePerIp, rateLimits.emailChangePerUser, userKey),
      handler: async (request) => {
        await auth.resendConfirmation(await requireUser(request));
        return { message: MSG.confirmLinkResent };
      },
    });

    r.post('/users/confirm-email', {
      schema: { tags: ['accounts'], body: confirmEmailBodySchema, response: { 200: messageSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'confirm-email', rateLimits.emailChangePerIp, rateLimits.emailChangePerIp, (request) =>
        clientKey(request.ip),
      ),
      handler: async (request) => {
        await auth.confirmEmailChange(request.body.token);
        return { message: MSG.emailConfirmed };
      },
    });

    r.post('/users/change-password', {
      config: { signedIn: true },
      schema: { tags: ['accounts'], body: changePasswordBodySchema, response: { 200: authResponseSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'change-password', rateLimits.passwordChangePerIp, rateLimits.passwordChangePerUser, userKey),
      handler: async (request, reply) => {
        const user = await requireUser(request);
        return grant(reply, await auth.changePassword(user, request.body.currentPassword, request.body.newPassword));
      },
    });

    r.post('/reset-password/request', {
      schema: { tags: ['accounts'], body: resetRequestBodySchema, response: { 200: messageSchema, ...errors } },
      preHandler: limitPerIpAndUsername(app, 'reset', rateLimits.resetPerIp, rateLimits.resetPerUsername),
      handler: async (request) => {
        await auth.requestReset(request.body.username);
        return { message: MSG.resetRequested };
      },
    });

    r.post('/reset-password', {
      schema: { tags: ['accounts'], body: resetPasswordBodySchema, response: { 200: messageSchema, ...errors } },
      // Guesses count against the account whose code they name; a code naming nobody counts only per client.
      preHandler: limitPerIpAndUsername(app, 'reset-set', rateLimits.resetConfirmPerIp, rateLimits.resetConfirmPerUser, async (request) => {
        const token = (request.body as { token?: unknown } | undefined)?.token;
        const owner = typeof token === 'string' ? await auth.resetCodeOwner(token) : undefined;
        return owner === undefined ? `nobody:${clientKey(request.ip)}` : `account:${owner}`;
      }),
      handler: async (request) => {
        await auth.resetPassword(request.body.token, request.body.newPassword);
        return { message: MSG.resetDone };
      },
    });
  };
