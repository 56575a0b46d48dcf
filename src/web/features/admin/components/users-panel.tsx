import { useState } from 'react';
import { MSG } from '../../../../shared/messages';
import type { AdminUser } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { PlanBadge } from '../../../components/plan-badge';
import { TextField } from '../../../components/text-field';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useDeleteUser } from '../api/delete-user';
import { USERS_PAGE_SIZE, useUsers } from '../api/get-users';
import { LoadState } from './load-state';

const ROLE_LABELS: Record<AdminUser['role'], MessageId> = {
  player: 'admin.users.role.player',
  server_owner: 'admin.users.role.owner',
  admin: 'admin.users.role.admin',
};

/** Users with search, pages and delete (asked first: it cannot be undone). */
export function UsersPanel() {
  const { t } = useT();
  const me = useSession()?.user.id;
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = useUsers({ q, page });
  const remove = useDeleteUser();
  const [target, setTarget] = useState<AdminUser | null>(null);
  const pages = data ? Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE)) : 1;

  const close = () => {
    setTarget(null);
    remove.reset();
  };

  return (
    <Panel
      id="users-heading"
      title={t('admin.users.title')}
      description={data ? t('admin.users.found', { count: data.total }) : undefined}
      action={
        <TextField
          label={t('admin.users.search')}
          type="search"
          value={q}
          placeholder={t('admin.users.searchPlaceholder')}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(1);
          }}
          className="w-full sm:w-64"
        />
      }
    >
      {!data ? (
        <LoadState pending={isPending} error={isError} failed="admin.load.users" />
      ) : data.users.length === 0 ? (
        <EmptyState title={t('admin.users.empty.title')}>{t('admin.users.empty.text')}</EmptyState>
      ) : (
        <div className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}>
          <ul className="flex flex-col divide-y divide-white/5" data-testid="admin-users">
            {data.users.map((u) => (
              <li key={u.id} className="flex items-center gap-3 py-3 text-sm">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-white">
                    <span className="truncate">{u.username}</span>
                    <span className="rounded-full bg-white/10 px-2 py-0.5 text-xs font-medium text-slate-300">
                      {t(ROLE_LABELS[u.role])}
                    </span>
                    {u.role === 'server_owner' ? <PlanBadge plan={u.subscriptionPlan} /> : null}
                  </p>
                  <p className="truncate text-slate-400">
                    {u.role === 'server_owner'
                      ? t('admin.users.lineOwner', {
                          email: u.email ?? t('admin.users.noEmail'),
                          servers: u.servers,
                          date: formatDate(u.createdAt),
                        })
                      : t('admin.users.line', { email: u.email ?? t('admin.users.noEmail'), date: formatDate(u.createdAt) })}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  className="shrink-0 px-3 py-1.5 text-red-300 hover:text-red-200"
                  disabled={u.id === me}
                  aria-label={t('admin.users.deleteLabel', { username: u.username })}
                  onClick={() => setTarget(u)}
                >
                  {t('admin.users.delete')}
                </Button>
              </li>
            ))}
          </ul>
          <Pagination label={t('admin.users.pages')} page={page} pages={pages} onPage={setPage} compact />
        </div>
      )}
      <ConfirmDialog
        open={target !== null}
        title={t('admin.users.confirm.title')}
        confirmLabel={t('admin.users.confirm.button')}
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error, MSG.deleteUserFailed) : null}
        onClose={close}
        onConfirm={() => target && remove.mutate(target.id, { onSuccess: close })}
      >
        <T id="admin.users.confirm.text" components={{ user: <strong className="text-white">{target?.username}</strong> }} />
      </ConfirmDialog>
    </Panel>
  );
}
