import { MSG } from '../../shared/messages';
import { safeReturnPath } from '../../shared/return-path';
import { checkoutUrlSchema } from '../../shared/schemas/payments';
import { apiRequest, errorText } from './api-client';

/** The session call answered without a url: shown as {@link MSG.stripeNoUrl}. */
export class MissingCheckoutUrlError extends Error {
  constructor() {
    super(MSG.stripeNoUrl);
    this.name = 'MissingCheckoutUrlError';
  }
}

/**
 * Calls one of the four checkout-session endpoints and answers the page to pay on: Stripe's, or
 * `/checkout/{id}` of the built-in test checkout that runs when no Stripe key is set.
 */
export async function createCheckoutSession(path: string, body: object): Promise<string> {
  const parsed = checkoutUrlSchema.safeParse(await apiRequest(path, { method: 'POST', body }));
  if (!parsed.success || !parsed.data.url.trim()) throw new MissingCheckoutUrlError();
  return parsed.data.url;
}

/** Leaves the app for the checkout page: a full navigation, since Stripe's page is another site. */
export function goToCheckout(url: string): void {
  window.location.href = url;
}

/** What to show when starting a checkout failed: the server's error, the missing-url text, else `fallback`. */
export function checkoutErrorText(error: unknown, fallback: string = MSG.stripeFailed): string {
  if (error instanceof MissingCheckoutUrlError) return MSG.stripeNoUrl;
  return errorText(error, fallback);
}

export type CheckoutOutcome = 'success' | 'canceled';

/** The return path with `?checkout=success|canceled` added (keeping any query it already has). */
export function returnUrl(path: string | null | undefined, outcome: CheckoutOutcome): string {
  const url = new URL(safeReturnPath(path), window.location.origin);
  url.searchParams.set('checkout', outcome);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The current page as a return path (server page boosts come back where they started). */
export function currentPath(): string {
  return window.location.pathname;
}
