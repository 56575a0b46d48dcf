import { Link } from 'react-router';
import { T } from '../i18n/use-t';

/** The brand mark and name; links to the landing page. */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <Link to="/" className={`tap inline-flex items-center gap-2.5 rounded-lg font-bold tracking-tight text-white ${className}`}>
      <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
      <span className="text-lg">
        <T id="common.logo.name" components={{ accent: <span className="text-gradient" /> }} />
      </span>
    </Link>
  );
}
