/** Inbox notifications, browser push subscriptions and owners' push promotions. */
export { notificationsRoutes } from './notifications.routes';
export { notificationsService, PUSH_SUBSCRIPTIONS_PER_USER, type NotificationsService } from './notifications.service';
export { notificationsRepository, type NotificationsRepository } from './notifications.repository';
export { promotionsRepository, type PromotionsRepository } from './promotions.repository';
export { FANOUT_QUEUE } from './fanout.worker';
