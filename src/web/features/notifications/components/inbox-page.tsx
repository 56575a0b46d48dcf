import { useState } from 'react';
import { Link } from 'react-router';
import type { Notification } from '../../../../shared/schemas/notifications';
import { Button, ButtonLink } from '../../../components/button';
import { Pagination } from '../../../components/pagination';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Skeleton } from '../../../components/skeleton';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { INBOX_PAGE_SIZE, useNotifications } from '../api/get-notifications';
import { useMarkRead } from '../api/mark-read';
import { usePushStatus } from '../hooks/use-push-permission';

/** `/inbox` (public): the caller's notifications, newest first; empty without a token. */
export function InboxPage() {
  const { t } = useT();
  const session = useSession();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-black tracking-tight text-white">{t('common.inbox.title')}</h1>
        <p className="text-slate-400">{t('common.inbox.intro')}</p>
      </header>
      {session ? (
        <>
          <PushStatus />
          <Inbox />
        </>
      ) : (
        <EmptyState
          title={t('common.inbox.loggedOutTitle')}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <ButtonLink to="/login">{t('common.inbox.login')}</ButtonLink>
              <ButtonLink to="/register" variant="secondary">
                {t('common.inbox.register')}
              </ButtonLink>
            </div>
          }
        >
          {t('common.inbox.loggedOutBody')}
        </EmptyState>
      )}
    </div>
  );
}

function PushStatus() {
  const { t } = useT();
  const { state, enable } = usePushStatus();
  if (state === 'granted' || state === 'unsupported') return null;
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-brand-400/30 bg-brand-500/10 p-4 sm:flex-row sm:items-center" role="note">
      <p className="flex-1 text-sm text-slate-200">{state === 'denied' ? t('common.inbox.pushBlocked') : t('common.inbox.pushOffer')}</p>
      {state === 'default' ? (
        <Button variant="secondary" onClick={() => void enable()}>
          {t('common.inbox.pushEnable')}
        </Button>
      ) : null}
    </div>
  );
}

function Inbox() {
  const { t } = useT();
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = useNotifications(page);
  const markRead = useMarkRead();
  const pages = data ? Math.max(1, Math.ceil(data.total / INBOX_PAGE_SIZE)) : 1;
  const unread = data?.notifications.some((n) => !n.read) ?? false;

  if (isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true" aria-label={t('common.inbox.loading')}>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
        {t('common.inbox.loadFailed')}
      </p>
    );
  }
  if (data.notifications.length === 0 && page === 1) {
    return (
      <EmptyState title={t('common.inbox.emptyTitle')} action={<ButtonLink to="/search">{t('common.inbox.emptyAction')}</ButtonLink>}>
        {t('common.inbox.emptyBody')}
      </EmptyState>
    );
  }
  return (
    <section
      aria-label={t('common.inbox.list')}
      className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-400">{t('common.inbox.count', { count: data.total })}</p>
        <Button variant="secondary" disabled={!unread || markRead.isPending} onClick={() => markRead.mutate('all')}>
          {t('common.inbox.markAll')}
        </Button>
      </div>
      <FormMessage error={markRead.isError ? errorText(markRead.error, t('common.inbox.markFailed')) : null} />
      <ul className="flex flex-col gap-3" data-testid="inbox">
        {data.notifications.map((n) => (
          <InboxItem key={n.id} notification={n} onRead={() => markRead.mutate(n.id)} busy={markRead.isPending} />
        ))}
      </ul>
      <Pagination
        page={page}
        pages={pages}
        onPage={setPage}
        label={t('common.inbox.pages')}
        previous={t('common.inbox.newer')}
        next={t('common.inbox.older')}
      />
    </section>
  );
}

/** Links must be paths on this site: navigated in the app; anything else is shown without a link. */
const isSitePath = (link: string | null): link is string => Boolean(link && /^\/(?!\/)/.test(link));

function InboxItem({ notification: n, onRead, busy }: { notification: Notification; onRead: () => void; busy: boolean }) {
  const { t } = useT();
  return (
    <li
      data-unread={!n.read}
      className={`flex gap-3 rounded-2xl border p-4 ${n.read ? 'border-white/10 bg-ink-900/60' : 'border-brand-400/40 bg-brand-500/10'}`}
    >
      <span
        aria-hidden="true"
        className={`mt-2 size-2.5 shrink-0 rounded-full ${n.read ? 'bg-transparent' : 'bg-accent-500 shadow-[0_0_8px] shadow-accent-500'}`}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <h2 className="break-words font-semibold text-white">
            {n.read ? null : <span className="sr-only">{t('common.inbox.unread')} </span>}
            {n.title}
          </h2>
          <time dateTime={n.createdAt} className="text-xs text-slate-400">
            {formatDate(n.createdAt)}
          </time>
        </div>
        <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-300">{n.message}</p>
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
          {isSitePath(n.link) ? (
            <Link to={n.link} onClick={n.read ? undefined : onRead} className="font-semibold text-brand-400 hover:underline">
              {t('common.inbox.open')}
            </Link>
          ) : null}
          {n.read ? null : (
            <button type="button" onClick={onRead} disabled={busy} className="text-slate-400 hover:text-white disabled:opacity-50">
              {t('common.inbox.markRead')}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
