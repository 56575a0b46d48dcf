import { z } from 'zod';
import { REGISTRABLE_ROLES } from '../roles';
import { MSG } from '../messages';
import { passwordSchema, usernameSchema } from './auth';

/** `GET /api/auth/discord`: whether the site offers sign-in with Discord (the button shows only then). */
export const discordEnabledSchema = z.object({ enabled: z.boolean() });

/** `POST /api/auth/discord/start`: where to come back to after signing in (a path on this site). */
export const discordStartBodySchema = z.object({ returnTo: z.string().max(500).optional() });

/**
 * `POST /api/users/discord/link`: where to come back to after linking (the profile by default), and
 * the current password of an account that has one (a session alone may not add a way in).
 */
export const discordLinkBodySchema = discordStartBodySchema.extend({ currentPassword: z.string().max(1000).optional() });

/** The authorization URL to send the browser to. */
export const discordStartSchema = z.object({ url: z.string() });

const signupToken = z.string({ error: MSG.allFieldsRequired }).regex(/^[\w-]{20,64}$/, 'Invalid sign-up link');

/** `POST /api/auth/discord/signup/info`: a sign-up waiting for its username. */
export const discordSignupInfoBodySchema = z.object({ token: signupToken });
export const discordSignupInfoSchema = z.object({
  /** The Discord account's display name. */
  discordName: z.string(),
  /** A free username made from it. */
  suggestedUsername: z.string(),
  email: z.string().nullable(),
  /** The address counts as confirmed (Discord verified it, and the account is old enough). */
  emailVerified: z.boolean(),
  returnTo: z.string(),
});
export type DiscordSignupInfo = z.infer<typeof discordSignupInfoSchema>;

/** `POST /api/auth/discord/signup`: the username and role of the new account. */
export const discordSignupBodySchema = z.object({
  token: signupToken,
  username: usernameSchema,
  role: z.enum(REGISTRABLE_ROLES, { error: MSG.roleInvalid }),
});

/** `POST /api/users/set-password`: a first password for an account made with Discord. */
export const setPasswordBodySchema = z.object({ newPassword: z.string({ error: MSG.allFieldsRequired }).pipe(passwordSchema) });
