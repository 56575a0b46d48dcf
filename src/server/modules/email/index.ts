/** Admins' mass e-mail to owners or players, and the unsubscribe link it carries. */
export { emailRoutes } from './email.routes';
export { massEmailService, type MassEmailService } from './mass-email.service';
export { massEmailRepository, type MassEmailRepository } from './mass-email.repository';
export { MASS_EMAIL_QUEUE } from './mass-email.worker';
export { unsubscribeTokens, type UnsubscribeTokens } from './unsubscribe';
