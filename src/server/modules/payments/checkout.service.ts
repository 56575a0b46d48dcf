import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PaymentType, UserRow } from '../../db/schema';
import type { Stripe } from '../../adapters/stripe';
import { BOOST_PACKAGES, PRICES, centsToDollars } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import { normalizePlan } from '../../../shared/roles';
import { boostPackageCents, type CheckoutSession, type Quote } from '../../../shared/schemas/payments';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import type { SettingsService } from '../settings/settings.service';
import type { FulfilmentService } from './fulfilment.service';
import { nextFreeWeekend } from './weekends';
import { describe, safeReturnPath, toApiCheckout, withParam } from './checkout.format';

interface Deps {
  db: Kysely<Database>;
  stripe: Stripe | undefined;
  fulfilment: FulfilmentService;
  settings: Pick<SettingsService, 'flag'>;
  publicUrl: string;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
}

interface Purchase {
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

/**
 * Checkout sessions (issue 4): the server decides every price and what is bought; the client
 * only names a plan, a server and a package. With Stripe keys the session is Stripe Checkout;
 * without, the built-in test checkout of decisions §6.
 */
export function checkoutService({ db, stripe, fulfilment, settings, publicUrl, now, log }: Deps) {
  const server = async (rawId: string) => {
    const id = parseId(rawId);
    const row = id
      ? await db.selectFrom('servers').select(['id', 'name', 'ownerId', 'hidden']).where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row || row.hidden) throw notFound(MSG.serverNotFound);
    return row;
  };

  const ownServer = async (actor: UserRow, rawId: string) => {
    if (actor.role !== 'server_owner') throw forbidden(MSG.onlyOwnersBuy);
    const row = await server(rawId);
    if (row.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
    return row;
  };

  /** The weekend a paid checkout booked, and a notice when it is not the one the checkout offered. */
  const bookedWeekend = async (checkoutId: string, offered: string | null) => {
    const booking = await db
      .selectFrom('weekendBookings')
      .innerJoin('payments', 'payments.id', 'weekendBookings.paymentId')
      .select('weekendBookings.weekendStart')
      .where('payments.checkoutSessionId', '=', checkoutId)
      .orderBy('weekendBookings.id', 'desc')
      .executeTakeFirst();
    if (!booking) return undefined;
    return { weekendStart: booking.weekendStart, notice: offered && offered !== booking.weekendStart ? MSG.weekendMoved : null };
  };

  const assertBoosting = async () => {
    if (!(await settings.flag('enableBoosting'))) throw forbidden(MSG.boostingDisabled);
  };

  /** Records the purchase and answers where to pay: Stripe Checkout or `/checkout/{id}`. */
  const open = async (actor: UserRow, purchase: Purchase): Promise<{ url: string }> => {
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
      await db
        .insertInto('checkoutSessions')
        .values({ ...base, id, provider: 'test' })
        .execute();
      return { url: `/checkout/${id}` };
    }
    const subscription = purchase.kind === 'subscription';
    const metadata = {
      kind: purchase.kind,
      userId: String(actor.id),
      serverId: purchase.serverId ? String(purchase.serverId) : '',
      quantity: String(purchase.quantity),
      plan: purchase.plan ?? '',
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: subscription ? 'subscription' : 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: purchase.amountCents,
                product_data: { name: purchase.description },
                ...(subscription ? { recurring: { interval: 'month' } } : {}),
              },
            },
          ],
          client_reference_id: String(actor.id),
          ...(actor.email ? { customer_email: actor.email } : {}),
          metadata,
          ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
          success_url: `${publicUrl}${withParam(purchase.returnPath, 'checkout=success')}`,
          cancel_url: `${publicUrl}${withParam(purchase.returnPath, 'checkout=canceled')}`,
        },
        // A retried request creates no second session.
        { idempotencyKey: `checkout-${crypto.randomUUID()}` },
      );
    } catch (error) {
      log.error({ err: error }, 'stripe checkout session failed');
      throw new AppError(502, MSG.stripeFailed);
    }
    if (!session.url) throw new AppError(502, MSG.stripeNoUrl);
    await db
      .insertInto('checkoutSessions')
      .values({ ...base, id: session.id, provider: 'stripe' })
      .execute();
    return { url: session.url };
  };

  return {
    async subscribe(actor: UserRow, plan: 'Pro' | 'Premium', returnPath: string | undefined) {
      if (actor.role !== 'server_owner') throw forbidden(MSG.onlyOwnersBuy);
      if (normalizePlan(actor.subscriptionPlan) === plan) throw conflict(MSG.alreadySubscribed);
      const cents = plan === 'Pro' ? PRICES.proMonthlyCents : PRICES.premiumMonthlyCents;
      return open(actor, {
        kind: 'subscription',
        amountCents: cents,
        quantity: 1,
        serverId: null,
        plan,
        description: describe('subscription', 1, plan, null),
        returnPath: safeReturnPath(returnPath),
      });
    },

    async boostSingle(actor: UserRow, serverId: string, returnPath: string | undefined) {
      if (actor.role !== 'player') throw forbidden(MSG.onlyPlayersBoost);
      await assertBoosting();
      const target = await server(serverId);
      if (target.ownerId === actor.id) throw forbidden(MSG.ownServerBoost);
      return open(actor, {
        kind: 'playerBoost',
        amountCents: PRICES.playerBoostCents,
        quantity: 1,
        serverId: target.id,
        plan: null,
        description: describe('playerBoost', 1, null, target.name),
        returnPath: safeReturnPath(returnPath ?? `/servers/${target.id}`),
      });
    },

    async boostPackage(actor: UserRow, serverId: string, boosts: number, returnPath: string | undefined) {
      const target = await ownServer(actor, serverId);
      await assertBoosting();
      const premium = normalizePlan(actor.subscriptionPlan) === 'Premium';
      return open(actor, {
        kind: 'ownerBoost',
        amountCents: boostPackageCents(boosts, premium),
        quantity: boosts,
        serverId: target.id,
        plan: null,
        description: describe('ownerBoost', boosts, null, target.name),
        returnPath: safeReturnPath(returnPath),
      });
    },

    async weekend(actor: UserRow, serverId: string, returnPath: string | undefined) {
      const target = await ownServer(actor, serverId);
      const offered = await nextFreeWeekend(db, now());
      return open(actor, {
        kind: 'serverOfTheWeekend',
        amountCents: PRICES.weekendCents,
        quantity: 1,
        serverId: target.id,
        plan: null,
        description: `${describe('serverOfTheWeekend', 1, null, target.name)}, weekend of ${offered}`,
        returnPath: safeReturnPath(returnPath),
        weekendStart: offered,
      });
    },

    /** The test checkout page's view of a session: only its buyer may see it. */
    async get(actor: UserRow, id: string): Promise<CheckoutSession> {
      const row = await db
        .selectFrom('checkoutSessions')
        .selectAll()
        .where('id', '=', id)
        .where('userId', '=', actor.id)
        .executeTakeFirst();
      if (!row) throw notFound(MSG.checkoutNotFound);
      const [serverRow, booked] = await Promise.all([
        row.serverId ? db.selectFrom('servers').select('name').where('id', '=', row.serverId).executeTakeFirst() : undefined,
        row.kind === 'serverOfTheWeekend' && row.status === 'complete' ? bookedWeekend(row.id, row.weekendStart) : undefined,
      ]);
      const weekend =
        row.kind === 'serverOfTheWeekend'
          ? (booked?.weekendStart ?? (row.status === 'open' ? await nextFreeWeekend(db, now(), row.weekendStart) : null))
          : null;
      return toApiCheckout(row, serverRow?.name ?? null, weekend, booked?.notice ?? null);
    },

    /** Pay on the test checkout: the same fulfilment as a verified webhook, once. Refused with Stripe keys. */
    async completeTest(actor: UserRow, id: string) {
      if (stripe) throw forbidden(MSG.testCheckoutDisabled);
      const row = await db
        .selectFrom('checkoutSessions')
        .select(['userId', 'status', 'returnPath', 'provider', 'kind', 'weekendStart'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.userId !== actor.id || row.provider !== 'test') throw notFound(MSG.checkoutNotFound);
      if (row.status === 'canceled' || row.status === 'expired') throw conflict(MSG.checkoutClosed);
      const result = await fulfilment.fulfil(id);
      const booked = row.kind === 'serverOfTheWeekend' ? await bookedWeekend(id, row.weekendStart) : undefined;
      return {
        returnPath: result?.returnPath ?? row.returnPath,
        credited: Boolean(result?.credited),
        weekendStart: booked?.weekendStart ?? null,
        notice: booked?.notice ?? null,
      };
    },

    async cancelTest(actor: UserRow, id: string) {
      if (stripe) throw forbidden(MSG.testCheckoutDisabled);
      const row = await db
        .updateTable('checkoutSessions')
        .set({ status: 'canceled' })
        .where('id', '=', id)
        .where('userId', '=', actor.id)
        .where('provider', '=', 'test')
        .where('status', '=', 'open')
        .returning('returnPath')
        .executeTakeFirst();
      if (row) return { returnPath: row.returnPath };
      const existing = await db
        .selectFrom('checkoutSessions')
        .select(['returnPath', 'status'])
        .where('id', '=', id)
        .where('userId', '=', actor.id)
        .executeTakeFirst();
      if (!existing) throw notFound(MSG.checkoutNotFound);
      if (existing.status === 'complete') throw conflict(MSG.checkoutClosed);
      return { returnPath: existing.returnPath };
    },

    /** Plan becomes none, here at once and at Stripe for a Stripe subscription. */
    async cancelSubscription(actor: UserRow): Promise<{ plan: '' }> {
      const live = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('userId', '=', actor.id)
        .where('status', 'in', ['active', 'past_due'])
        .execute();
      if (live.length === 0 && normalizePlan(actor.subscriptionPlan) === '') throw badRequest(MSG.noSubscription);
      for (const s of live) {
        if (s.stripeSubscriptionId && stripe) {
          try {
            await stripe.subscriptions.cancel(s.stripeSubscriptionId);
          } catch (error) {
            log.error({ err: error }, 'stripe subscription cancel failed');
            throw new AppError(502, MSG.cancelFailed);
          }
        }
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('subscriptions')
          .set({ status: 'canceled', canceledAt: now(), updatedAt: now(), lastEventAt: now() })
          .where('userId', '=', actor.id)
          .where('status', 'in', ['active', 'past_due'])
          .execute();
        await fulfilment.refreshPlan(trx, actor.id);
      });
      return { plan: '' };
    },

    async quote(actor: UserRow): Promise<Quote> {
      const premium = normalizePlan(actor.subscriptionPlan) === 'Premium';
      return {
        premium,
        packages: BOOST_PACKAGES.map((p) => {
          const cents = boostPackageCents(p.boosts, premium);
          return { boosts: p.boosts, cents, amount: centsToDollars(cents), fullAmount: centsToDollars(p.cents) };
        }),
        playerBoost: centsToDollars(PRICES.playerBoostCents),
        weekend: { amount: centsToDollars(PRICES.weekendCents), nextFreeWeekend: await nextFreeWeekend(db, now()) },
        plans: { Pro: centsToDollars(PRICES.proMonthlyCents), Premium: centsToDollars(PRICES.premiumMonthlyCents) },
        boostingEnabled: await settings.flag('enableBoosting'),
      };
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
