import { MSG } from '../../shared/messages';
import { checkoutUrlSchema } from '../../shared/schemas/payments';
import { apiRequest, errorText } from './api-client';

/** The session call answered without a url (spec §8: 'Failed to get Stripe session URL.'). */
export class MissingCheckoutUrlError extends Error {
  constructor() {
    super(MSG.stripeNoUrl);
    this.name = 'MissingCheckoutUrlError';
  }
}

/**
 * Calls one of the four checkout-session endpoints and answers the page to pay on: Stripe's, or
 * `/checkout/{id}` of the built-in test checkout (decisions §6).
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

/** `path` when it is a path on this site, else `/payments`: a stored return path is never trusted to leave the site. */
export function safeReturnPath(path: string | null | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/payments';
  return path;
}

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
