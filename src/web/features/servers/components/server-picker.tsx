import { NavLink } from 'react-router';
import type { Server } from '../../../../shared/schemas/server';
import { useT } from '../../../i18n/use-t';
import { ServerAvatar } from './server-card';

/** Switches the dashboard between an owner's servers (up to three). */
export function ServerPicker({ servers, currentId }: { servers: readonly Server[]; currentId: string | undefined }) {
  const { t } = useT();
  return (
    <nav aria-label={t('owner.picker.label')} className="-mx-4 overflow-x-auto px-4">
      <ul className="flex w-max gap-2">
        {servers.map((s) => (
          <li key={s.id}>
            <NavLink
              to={`/dashboard/${s.id}`}
              aria-current={s.id === currentId ? 'page' : undefined}
              className={`flex max-w-64 items-center gap-2 rounded-xl border px-3 py-2 text-sm font-medium transition ${
                s.id === currentId
                  ? 'border-brand-400 bg-brand-500/15 text-white'
                  : 'border-white/10 bg-white/5 text-slate-300 hover:text-white'
              }`}
            >
              <ServerAvatar src={s.profilePicture} name={s.name} className="size-7 rounded-lg text-xs" />
              <span className="truncate">{s.name}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
