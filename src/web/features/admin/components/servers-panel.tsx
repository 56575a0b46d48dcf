import { useState } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import type { Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useServerList } from '../../servers';
import { useDeleteServer } from '../api/delete-server';
import { LoadState } from './load-state';

const SERVERS_PAGE_SIZE = 10;

/** Every listed server, newest first, with delete (asked first: it cannot be undone). */
export function ServersPanel() {
  const { t } = useT();
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = useServerList({
    sort: 'new',
    limit: SERVERS_PAGE_SIZE,
    offset: (page - 1) * SERVERS_PAGE_SIZE,
  });
  const remove = useDeleteServer();
  const [target, setTarget] = useState<Server | null>(null);
  const pages = data ? Math.max(1, Math.ceil(data.total / SERVERS_PAGE_SIZE)) : 1;
  const close = () => {
    setTarget(null);
    remove.reset();
  };

  return (
    <Panel
      id="servers-heading"
      title={t('admin.servers.title')}
      description={
        data
          ? data.capped
            ? t('admin.servers.countCapped', { count: data.total })
            : t('admin.servers.count', { count: data.total })
          : undefined
      }
    >
      {!data ? (
        <LoadState pending={isPending} error={isError} failed="admin.load.servers" />
      ) : data.servers.length === 0 ? (
        <EmptyState title={t('admin.servers.empty')} />
      ) : (
        <div className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}>
          <ul className="flex flex-col divide-y divide-white/5" data-testid="admin-servers">
            {data.servers.map((s) => (
              <li key={s.id} className="flex items-center gap-4 py-3 text-sm">
                <div className="min-w-0 flex-1">
                  <Link to={`/servers/${s.id}`} className="block truncate font-semibold text-white hover:underline">
                    {s.name}
                  </Link>
                  <p className="text-slate-400">{t('admin.servers.stats', { likes: s.likes, joins: s.totalJoins })}</p>
                </div>
                <Button
                  variant="ghost"
                  className="px-3 py-1.5 text-red-300 hover:text-red-200"
                  aria-label={t('admin.servers.deleteLabel', { name: s.name })}
                  onClick={() => setTarget(s)}
                >
                  {t('admin.servers.delete')}
                </Button>
              </li>
            ))}
          </ul>
          <Pagination label={t('admin.servers.pages')} page={page} pages={pages} onPage={setPage} compact />
        </div>
      )}
      <ConfirmDialog
        open={target !== null}
        title={t('admin.servers.confirm.title')}
        confirmLabel={t('admin.servers.confirm.button')}
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error, MSG.deleteServerFailed) : null}
        onClose={close}
        onConfirm={() => target && remove.mutate(target.id, { onSuccess: close })}
      >
        <T id="admin.servers.confirm.text" components={{ server: <strong className="text-white">{target?.name}</strong> }} />
      </ConfirmDialog>
    </Panel>
  );
}
