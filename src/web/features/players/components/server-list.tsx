import { Link } from 'react-router';
import type { ServerSummary } from '../../../../shared/schemas/server';
import { ButtonLink } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';

/** A short list of servers on the profile, each linking to its page. */
export function ServerList({
  title,
  servers,
  empty,
  testId,
}: {
  title: string;
  servers: readonly ServerSummary[];
  empty: string;
  testId: string;
}) {
  const { t } = useT();
  return (
    <section aria-labelledby={`${testId}-heading`} className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/80 p-5">
      <h2 id={`${testId}-heading`} className="text-lg font-semibold text-white">
        {title} <span className="text-sm font-normal text-slate-400">({formatNumber(servers.length)})</span>
      </h2>
      {servers.length === 0 ? (
        <EmptyState
          title={empty}
          action={
            <ButtonLink to="/search" variant="secondary">
              {t('landing.serverList.find')}
            </ButtonLink>
          }
        />
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2" data-testid={testId}>
          {servers.map((s) => (
            <li key={s.id}>
              <Link
                to={`/servers/${s.id}`}
                className="flex items-center gap-3 rounded-xl border border-white/10 bg-white/5 p-2 pr-3 hover:border-brand-400/50 hover:bg-white/10"
              >
                {s.profilePicture ? (
                  <img
                    src={s.profilePicture}
                    alt=""
                    width={256}
                    height={256}
                    loading="lazy"
                    decoding="async"
                    className="size-10 shrink-0 rounded-lg object-cover"
                  />
                ) : (
                  <span
                    aria-hidden="true"
                    className="grid size-10 shrink-0 place-items-center rounded-lg bg-gradient-to-br from-brand-600 to-accent-500 font-bold text-white"
                  >
                    {s.name.charAt(0).toUpperCase()}
                  </span>
                )}
                <span className="truncate font-medium text-slate-100">{s.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
