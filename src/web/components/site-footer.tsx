import { Link } from 'react-router';
import { useT } from '../i18n/use-t';
import { useNow } from '../lib/use-now';
import { LanguageSwitcher } from './language-switcher';

export const SUPPORT_EMAIL = 'support@rpservers.gg';

/** Footer with the support contact, the public pages and the site's languages. */
export function SiteFooter() {
  const { t } = useT();
  const [now] = useNow(3_600_000);
  return (
    <footer className="border-t border-white/10 bg-ink-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-slate-400 xl:flex-row xl:items-center xl:justify-between">
        <p>{t('common.footer.tagline', { year: String(new Date(now).getFullYear()) })}</p>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between sm:gap-x-6 xl:justify-end">
          <div className="-mx-2 flex flex-wrap">
            <Link to="/subscriptions" className="inline-flex min-h-11 items-center px-2 hover:text-white">
              {t('common.footer.plans')}
            </Link>
            <Link to="/testimonials" className="inline-flex min-h-11 items-center px-2 hover:text-white">
              {t('common.footer.testimonials')}
            </Link>
            <a href={`mailto:${SUPPORT_EMAIL}`} className="inline-flex min-h-11 items-center px-2 hover:text-white">
              {t('common.footer.support')}
            </a>
          </div>
          {/* Label beside the select; a failed save's note wraps to its own line under them. */}
          <LanguageSwitcher className="max-w-sm flex-row! flex-wrap items-center gap-x-3! gap-y-1" />
        </div>
      </div>
    </footer>
  );
}
