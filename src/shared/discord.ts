/** Sign in with Discord: what its routes answer, word for word, and what the web app shows for each outcome. */
export const DISCORD_MSG = {
  notConfigured: 'Sign-in with Discord is not set up on this site.',
  signupExpired: 'This Discord sign-in has expired. Please continue with Discord again.',
  alreadyLinkedElsewhere: 'This Discord account is linked to another account here. Log in to that account instead.',
  emailTaken:
    'The e-mail address of this Discord account belongs to an account here already. Log in to that account and link Discord on your profile.',
  notLinked: 'No Discord account is linked to your account.',
  lastWayIn: 'Set a password first: without one, Discord is your only way in.',
  hasPassword: 'Your account has a password already: change it with your current one.',
  passwordSet: 'Password set. You can now log in with your username and password too.',
  unlinked: 'Discord unlinked.',
  passwordToLink: 'Enter your current password to link Discord.',
  unlinkFirst: 'A Discord account is linked already: unlink it first.',
  notForAdmins: 'Admin accounts sign in with their password only.',
} as const;

/**
 * Why a return from Discord did not sign anyone in: the code the callback puts in the web app's
 * URL (`?discordError=`), and the message shown for it.
 */
export const DISCORD_ERRORS = {
  state: 'That sign-in link was already used or has expired. Please continue with Discord again.',
  denied: 'Discord sign-in was cancelled.',
  failed: 'Discord refused the sign-in. Please try again.',
  unreachable: 'Discord did not answer in time. Please try again in a moment.',
  taken: DISCORD_MSG.alreadyLinkedElsewhere,
  linked: DISCORD_MSG.unlinkFirst,
  'email-taken': DISCORD_MSG.emailTaken,
} as const;
export type DiscordErrorCode = keyof typeof DISCORD_ERRORS;

/** A Discord account younger than this counts as brand new: held like a new account, and its e-mail is confirmed by our own mail. */
export const DISCORD_YOUNG_MS = 3 * 24 * 3600_000;
