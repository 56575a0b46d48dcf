import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  changePasswordBodySchema,
  loginBodySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  resetRequestBodySchema,
  updateEmailBodySchema,
  userSchema,
} from '../../../shared/schemas/auth';
import { errorSchema, messageSchema } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import { currentUser, requireUser } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';
import { toApiUser } from '../users/users.repository';

const errors = { 400: errorSchema, 401: errorSchema, 409: errorSchema, 429: errorSchema };

/** Accounts: register, login, current user, e-mail, password reset (issue 2 §4). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, rateLimits } = app.ctx;

  r.post('/register', {
    schema: { tags: ['accounts'], body: registerBodySchema, response: { 201: authResponseSchema, ...errors } },
    preHandler: limitPerIpAndUsername(app, 'register', rateLimits.registerPerIp, rateLimits.registerPerUsername),
    handler: async (request, reply) => {
      const { user, token } = await auth.register(request.body);
      return reply.code(201).send({ user: toApiUser(user), token });
    },
  });

  r.post('/login', {
    schema: { tags: ['accounts'], body: loginBodySchema, response: { 200: authResponseSchema, ...errors } },
    preHandler: limitPerIpAndUsername(app, 'login', rateLimits.loginPerIp, rateLimits.loginPerUsername),
    handler: async (request) => {
      const { user, token } = await auth.login(request.body);
      return { user: toApiUser(user), token };
    },
  });

  r.get('/user', {
    schema: { tags: ['accounts'], response: { 200: userSchema, 401: errorSchema } },
    handler: async (request) => toApiUser(await requireUser(request)),
  });

  r.post('/users/update-email', {
    schema: { tags: ['accounts'], body: updateEmailBodySchema, response: { 200: userSchema, ...errors } },
    handler: async (request) => {
      const user = await requireUser(request);
      return toApiUser(await auth.updateEmail(user.id, request.body.email));
    },
  });

  r.post('/users/change-password', {
    schema: { tags: ['accounts'], body: changePasswordBodySchema, response: { 200: authResponseSchema, ...errors } },
    preHandler: limitPerIpAndUsername(app, 'change-password', rateLimits.passwordChangePerIp, rateLimits.passwordChangePerUser, async (r) =>
      String((await currentUser(r))?.id ?? 'anonymous'),
    ),
    handler: async (request) => {
      const user = await requireUser(request);
      const { user: updated, token } = await auth.changePassword(user, request.body.currentPassword, request.body.newPassword);
      return { user: toApiUser(updated), token };
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
    preHandler: limitPerIpAndUsername(app, 'reset-set', rateLimits.resetPerIp, rateLimits.resetPerUsername),
    handler: async (request) => {
      await auth.resetPassword(request.body.token, request.body.newPassword);
      return { message: MSG.resetDone };
    },
  });
}
