import { Link } from 'react-router';
import { useNow } from '../lib/use-now';

export const SUPPORT_EMAIL = 'support@rpservers.gg';

/** Footer with the support contact and the public pages. */
export function SiteFooter() {
  const [now] = useNow(3_600_000);
  return (
    <footer className="border-t border-white/10 bg-ink-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-slate-400 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date(now).getFullYear()} RP Servers · Find your next roleplay home.</p>
        <div className="-mx-2 flex flex-wrap">
          <Link to="/subscriptions" className="inline-flex min-h-11 items-center px-2 hover:text-white">
            Plans
          </Link>
          <Link to="/testimonials" className="inline-flex min-h-11 items-center px-2 hover:text-white">
            Testimonials
          </Link>
          <a href={`mailto:${SUPPORT_EMAIL}`} className="inline-flex min-h-11 items-center px-2 hover:text-white">
            Contact support
          </a>
        </div>
      </div>
    </footer>
  );
}
