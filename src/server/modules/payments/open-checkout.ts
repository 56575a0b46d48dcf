import crypto from 'node:crypto';
import type { PaymentType, UserRow } from '../../db/schema';
import type { StripeGateway } from '../../adapters/stripe';
import { MSG } from '../../../shared/messages';
import { AppError } from '../../errors';
import type { CheckoutsRepository } from './checkouts.repository';
import { withParam } from './checkout.format';

/** What is being bought, priced and described by the server. */
export interface Purchase {
  kind: PaymentType;
  amountCents: number;
  quantity: number;
  serverId: number | null;
  plan: 'Pro' | 'Premium' | null;
  description: string;
  returnPath: string;
  /** Server of the Weekend: the weekend offered now; fulfilment books it or, if gone, the next free one. */
  weekendStart?: string | null;
}

interface Deps {
  checkouts: Pick<CheckoutsRepository, 'insert'>;
  stripe: StripeGateway | undefined;
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
}

/** Opens checkout sessions: at Stripe when it is configured, else on the built-in test checkout. */
export function checkoutOpener({ checkouts, stripe, publicUrl, log }: Deps) {
  /** Records the purchase and answers where to pay: Stripe Checkout or `/checkout/{id}`. */
  return async (actor: UserRow, purchase: Purchase): Promise<{ url: string }> => {
    const base = {
      userId: actor.id,
      serverId: purchase.serverId,
      kind: purchase.kind,
      plan: purchase.plan,
      quantity: purchase.quantity,
      amountCents: purchase.amountCents,
      returnPath: purchase.returnPath,
      weekendStart: purchase.weekendStart ?? null,
    };
    if (!stripe) {
      const id = `cs_local_${crypto.randomBytes(16).toString('hex')}`;
      await checkouts.insert({ ...base, id, provider: 'test' });
      return { url: `/checkout/${id}` };
    }
    // The webhooks read the buyer and what was bought back from these.
    const metadata = {
      kind: purchase.kind,
      userId: String(actor.id),
      serverId: purchase.serverId ? String(purchase.serverId) : '',
      quantity: String(purchase.quantity),
      plan: purchase.plan ?? '',
    };
    let session: { id: string; url: string | null };
    try {
      session = await stripe.createCheckoutSession({
        mode: purchase.kind === 'subscription' ? 'subscription' : 'payment',
        amountCents: purchase.amountCents,
        productName: purchase.description,
        clientReferenceId: String(actor.id),
        customerEmail: actor.email,
        metadata,
        successUrl: `${publicUrl}${withParam(purchase.returnPath, 'checkout=success')}`,
        cancelUrl: `${publicUrl}${withParam(purchase.returnPath, 'checkout=canceled')}`,
      });
    } catch (error) {
      log.error({ err: error }, 'stripe checkout session failed');
      throw new AppError(502, MSG.stripeFailed);
    }
    if (!session.url) throw new AppError(502, MSG.stripeNoUrl);
    await checkouts.insert({ ...base, id: session.id, provider: 'stripe' });
    return { url: session.url };
  };
}
