/** The payments module's public face: what the composition root, the API routes and other modules use. */
export { checkoutsRepository, type CheckoutsRepository } from './checkouts.repository';
export { creditsRepository, type BoostCredit, type CreditsRepository } from './credits.repository';
export { paymentsRepository, type PaymentsRepository } from './payments.repository';
export { subscriptionsRepository, type SubscriptionsRepository } from './subscriptions.repository';
export { fulfilmentService, type FulfilmentService, type FulfilResult } from './fulfilment.service';
export { checkoutService, type CheckoutService } from './checkout.service';
export { boostCreditsService, type BoostCreditsService } from './boost-credits.service';
export { webhookService, type WebhookService } from './webhook.service';
export { paymentsService, type PaymentsService } from './payments.service';
export { paymentsRoutes } from './payments.routes';
export { webhookRoutes } from './webhook.routes';
