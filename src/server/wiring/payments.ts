import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { InTransaction } from '../db/transaction';
import { createStripeGateway } from '../adapters/stripe';
import type { SettingsService } from '../modules/settings';
import {
  boostCreditsService,
  checkoutService,
  checkoutsRepository,
  creditsRepository,
  fulfilmentService,
  paymentsRepository,
  paymentsService,
  subscriptionsRepository,
  webhookService,
} from '../modules/payments';

/**
 * Plans, boosts and Server of the Weekend paid through Stripe: the checkout, its webhooks, what a
 * payment gives (fulfilment) and boost credits, over one set of payment repositories.
 */
export function paymentsFor(deps: {
  db: Kysely<Database>;
  config: Config;
  inTransaction: InTransaction;
  settings: SettingsService;
  now: () => Date;
  log: FastifyBaseLogger;
  /** A payment changed what lists show (a plan, a boost, the weekend's server). */
  onServersChanged: () => void;
}) {
  const { db, config, inTransaction, settings, now, log, onServersChanged } = deps;
  const stripe = createStripeGateway(config.stripe);
  const payments = {
    checkouts: checkoutsRepository(db),
    payments: paymentsRepository(db),
    subscriptions: subscriptionsRepository(db),
    credits: creditsRepository(db),
  };
  const fulfilment = fulfilmentService({ ...payments, inTransaction, now, onChange: onServersChanged });
  return {
    stripe,
    fulfilment,
    checkout: checkoutService({ ...payments, inTransaction, stripe, fulfilment, settings, publicUrl: config.publicUrl, now, log }),
    webhooks: webhookService({
      fulfilment,
      subscriptions: payments.subscriptions,
      stripe,
      webhookSecret: config.stripe.webhookSecret,
      log,
    }),
    boostCredits: boostCreditsService({ ...payments, inTransaction, settings, now, onChange: onServersChanged }),
    payments: paymentsService(payments),
  };
}
