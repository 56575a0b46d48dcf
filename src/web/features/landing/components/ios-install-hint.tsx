import { T, useT } from '../../../i18n/use-t';

/** iOS has no install prompt: tell Safari users how to add the app to the home screen. */
export function IosInstallHint({ visible, dismiss }: { visible: boolean; dismiss: () => void }) {
  const { t } = useT();
  if (!visible) return null;
  return (
    <aside aria-label={t('landing.iosHint.label')} data-testid="ios-install-hint" className="mx-auto mt-4 w-full max-w-7xl px-4">
      <div className="flex items-start gap-3 rounded-2xl border border-sky-400/30 bg-sky-500/10 p-4 text-sm text-sky-100">
        <svg viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0" aria-hidden="true">
          <path
            d="M12 3v12m0-12L8 7m4-4l4 4M5 11v9h14v-9"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <p className="flex-1">
          <T id="landing.iosHint.text" components={{ share: <strong />, add: <strong /> }} />
        </p>
        <button
          type="button"
          onClick={dismiss}
          className="rounded-lg px-2 py-1 font-semibold text-sky-200 hover:bg-white/10"
          aria-label={t('landing.iosHint.dismissLabel')}
        >
          {t('landing.iosHint.dismiss')}
        </button>
      </div>
    </aside>
  );
}
