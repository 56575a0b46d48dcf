/**
 * User-facing messages of spec §8 and §5. The server answers with these in `{error}`;
 * the web app shows the server's error when present, else the fallback named here.
 */
export const MSG = {
  // validation
  allFieldsRequired: 'All fields are required',
  resetAllFieldsRequired: 'All fields are required.',
  passwordsDontMatch: "Passwords don't match.",
  emailRequired: 'Email required',
  emailInvalid: 'Enter a valid e-mail address',
  usernameInvalid: `Username must be 3 to 32 letters, digits, '_', '-' or '.'`,
  passwordLength: 'Password must be 8 to 128 characters',
  roleInvalid: 'Role must be player or server_owner',
  usernameTaken: 'Username is already taken',
  invalidCredentials: 'Invalid username or password',
  resetRequested: 'If that account exists and has an e-mail address, a reset code is on its way.',
  resetDone: 'Password updated. You can log in now.',
  resetTokenInvalid: 'This reset code is invalid or has expired.',
  currentPasswordWrong: 'Current password is incorrect',
  // session
  loginRequired: 'You must be logged in to perform this action.',
  sessionExpired: 'User data unavailable. Please login again.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found',
  tooLarge: 'Request is too large',
  tooMany: 'Too many attempts. Please wait and try again.',
  invalidJson: 'Request body is not valid JSON',
  unsupportedMedia: 'Unsupported content type',
  internal: 'Something went wrong. Please try again.',
  maintenance: 'The site is in maintenance mode. Please try again later.',
  // fallbacks of the web app
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  resetFailed: 'Error resetting password.',
  updateEmailFailed: 'Error updating email',
} as const;
