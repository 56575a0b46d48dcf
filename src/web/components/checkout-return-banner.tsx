import type { MessageId } from '../i18n/catalogs/index';
import { useT } from '../i18n/use-t';
import type { CheckoutOutcome } from '../lib/checkout';
import { useCheckoutReturn } from '../lib/use-checkout-return';

const TEXT: Record<CheckoutOutcome, { title: MessageId; body: MessageId }> = {
  success: { title: 'common.checkout.successTitle', body: 'common.checkout.successBody' },
  canceled: { title: 'common.checkout.canceledTitle', body: 'common.checkout.canceledBody' },
};

/**
 * The banner a page shows after the checkout sent the browser back to it (`?checkout=…`): the
 * checkout's own confirmation when it passed one, else `successText`, else a general thank-you.
 */
export function CheckoutReturnBanner({ successText }: { successText?: string }) {
  const { t } = useT();
  const { outcome, message, dismiss } = useCheckoutReturn();
  if (!outcome) return null;
  const text = TEXT[outcome];
  const body = t(text.body);
  const lookClassName =
    outcome === 'success' ? 'border-emerald-500/30 bg-emerald-500/10 text-emerald-100' : 'border-slate-400/30 bg-white/5 text-slate-200';
  return (
    <div
      role="status"
      data-testid={`checkout-${outcome}`}
      className={`flex items-start justify-between gap-4 rounded-xl border px-4 py-3 ${lookClassName}`}
    >
      <p className="text-sm">
        <span className="font-semibold">{t(text.title)}</span> {outcome === 'success' ? (message ?? successText ?? body) : body}
      </p>
      <button
        type="button"
        onClick={dismiss}
        aria-label={t('common.checkout.dismiss')}
        className="rounded-lg p-1 opacity-70 hover:bg-white/10 hover:opacity-100"
      >
        <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
          <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
