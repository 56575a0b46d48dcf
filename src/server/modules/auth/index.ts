/** The auth module's public face: accounts, sessions, tokens and the start-up admin. */
export { authRoutes } from './auth.routes';
export { authService, type AuthService, type SessionGrant } from './auth.service';
export { createTokenService, type TokenClaims, type TokenService } from './tokens';
export { ensureAdmin, AdminBootstrapError } from './admin-bootstrap';
export { hashPassword, verifyPassword } from './password';
export { sessionsRepository } from './sessions.repository';
export { resetCodesRepository } from './reset-codes.repository';
export { emailChangesRepository } from './email-changes.repository';
export { randomCode, sha256 } from './secret-codes';
export { setRefreshCookie } from './refresh-cookie';
