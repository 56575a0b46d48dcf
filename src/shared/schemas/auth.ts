import { z } from 'zod';
import { LIMITS } from '../limits';
import { LOCALES } from '../i18n/locales';
import { MSG } from '../messages';
import { REGISTRABLE_ROLES, ROLES, PLANS } from '../roles';

/** A required text field: missing, non-text or blank all answer with `message`. */
const required = (message: string) => z.string({ error: message }).refine((s) => s.trim().length > 0, { message });

/** A username: letters, digits, `_`, `.` and `-`, of the allowed length. */
export const usernameSchema = required(MSG.allFieldsRequired).pipe(
  z
    .string()
    .min(LIMITS.usernameMin, MSG.usernameInvalid)
    .max(LIMITS.usernameMax, MSG.usernameInvalid)
    .regex(/^[A-Za-z0-9_.-]+$/, MSG.usernameInvalid),
);

/** A new password, of the allowed length. */
export const passwordSchema = z.string().min(LIMITS.passwordMin, MSG.passwordLength).max(LIMITS.passwordMax, MSG.passwordLength);

/** An e-mail address, trimmed. */
export const emailSchema = z
  .string({ error: MSG.emailRequired })
  .trim()
  .min(1, MSG.emailRequired)
  .max(LIMITS.email, MSG.emailInvalid)
  .pipe(z.email({ error: MSG.emailInvalid }));

/** `POST /api/register`: a new account of a role anyone may choose. */
export const registerBodySchema = z.object({
  username: usernameSchema,
  password: required(MSG.allFieldsRequired).pipe(passwordSchema),
  role: required(MSG.allFieldsRequired).pipe(z.enum(REGISTRABLE_ROLES, { error: MSG.roleInvalid })),
  /** Optional here: given, its confirmation link is mailed at once; else the first login asks for it. */
  email: z
    .string({ error: MSG.emailInvalid })
    .max(LIMITS.email * 4, MSG.emailInvalid)
    .nullish()
    .refine((v) => !v?.trim() || emailSchema.safeParse(v).success, { message: MSG.emailInvalid }),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** `POST /api/login`; lengths are capped loosely, so a wrong guess is told apart only by the password check. */
export const loginBodySchema = z.object({
  username: required(MSG.allFieldsRequired).pipe(z.string().max(LIMITS.usernameMax * 4)),
  password: required(MSG.allFieldsRequired).pipe(z.string().max(LIMITS.passwordMax * 4)),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** `POST /api/reset-password/request`: mail a reset code to this account's address, if it has one. */
export const resetRequestBodySchema = z.object({
  username: required(MSG.resetAllFieldsRequired).pipe(z.string().max(LIMITS.usernameMax * 4)),
});

/** `POST /api/reset-password`: the mailed code and the new password. */
export const resetPasswordBodySchema = z.object({
  token: required(MSG.resetAllFieldsRequired).pipe(z.string().max(200)),
  newPassword: required(MSG.resetAllFieldsRequired).pipe(passwordSchema),
});

/** `POST /api/users/change-password`: the current password proves it is the owner asking. */
export const changePasswordBodySchema = z.object({
  currentPassword: required(MSG.allFieldsRequired).pipe(z.string().max(LIMITS.passwordMax * 4)),
  newPassword: required(MSG.allFieldsRequired).pipe(passwordSchema),
});

/** A new address waits for its confirmation link; the current password proves it is the owner asking. */
export const updateEmailBodySchema = z.object({
  email: emailSchema,
  /** Needed to change an existing address; a first address is set without it. */
  currentPassword: z
    .string()
    .max(LIMITS.passwordMax * 4)
    .optional(),
});
/** The answer: what happened, and the address the account has now (a changed one only once confirmed). */
export const updateEmailResultSchema = z.object({ message: z.string(), email: z.string().nullable() });

export type UpdateEmailBody = z.infer<typeof updateEmailBodySchema>;

/** The token of the link mailed to a new address. */
export const confirmEmailBodySchema = z.object({
  token: required(MSG.emailConfirmInvalid).pipe(z.string().max(200)),
});

/** The API's user object, id as a string (docs/decisions/002-ids-and-types.md); the response schema strips every private field. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  email: z.string().nullable(),
  /** Whether the link mailed to `email` was opened: joining, voting and reviewing need it. */
  emailConfirmed: z.boolean().default(false),
  subscriptionPlan: z.enum(PLANS),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  /** The linked Discord account (its name and when it was linked), if any. */
  discord: z.object({ username: z.string(), linkedAt: z.iso.datetime() }).nullable().default(null),
  /** False for an account made with Discord that has not set a password yet. */
  hasPassword: z.boolean().default(true),
  /** The language the user chose (the site and their e-mails), or null: the device's or browser's. */
  locale: z.enum(LOCALES).nullable().default(null),
});
export type User = z.infer<typeof userSchema>;

/** A login's answer: the user and the access token (the refresh token goes in its cookie). */
export const authResponseSchema = z.object({ user: userSchema, token: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** `PUT /api/users/locale`: the language the user's pages and e-mails are in. */
export const localeBodySchema = z.object({ locale: z.enum(LOCALES, { error: MSG.localeInvalid }) });
