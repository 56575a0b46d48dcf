/** The moderation module: reports and the admins' queue. */
export { moderationRepository, type ModerationRepository } from './moderation.repository';
export { moderationService, type ModerationService } from './moderation.service';
export { moderationRoutes } from './moderation.routes';
