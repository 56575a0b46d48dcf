import { useCheckoutReturn } from '../lib/use-checkout-return';

const TEXT = {
  success: { title: 'Payment complete', body: 'Thank you! Your purchase is active.' },
  canceled: { title: 'Checkout cancelled', body: 'Nothing was bought and you were not charged.' },
} as const;

/**
 * The banner a page shows after the checkout sent the browser back to it (`?checkout=…`): the
 * checkout's own confirmation when it passed one, else `successText`, else a general thank-you.
 */
export function CheckoutReturnBanner({ successText }: { successText?: string }) {
  const { outcome, message, dismiss } = useCheckoutReturn();
  if (!outcome) return null;
  const text = TEXT[outcome];
  const look =
    outcome === 'success' ? 'border-emerald-500/30 bg-emerald-500/10 text-emerald-100' : 'border-slate-400/30 bg-white/5 text-slate-200';
  return (
    <div
      role="status"
      data-testid={`checkout-${outcome}`}
      className={`flex items-start justify-between gap-4 rounded-xl border px-4 py-3 ${look}`}
    >
      <p className="text-sm">
        <span className="font-semibold">{text.title}.</span> {outcome === 'success' ? (message ?? successText ?? text.body) : text.body}
      </p>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Dismiss"
        className="rounded-lg p-1 opacity-70 hover:bg-white/10 hover:opacity-100"
      >
        <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
          <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
