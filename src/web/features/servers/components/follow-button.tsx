import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useFollowState, useToggleFollow } from '../api/follow';

/**
 * Follow a server: its followers hear (in their inbox) when it comes back online or announces an
 * event. Shows the follower count; a visitor is asked to log in.
 */
export function FollowButton({ serverId, isOwner }: { serverId: string; isOwner: boolean }) {
  const { t } = useT();
  const session = useSession();
  const userId = session?.user.id ?? '';
  const state = useFollowState(serverId, userId);
  const toggle = useToggleFollow(serverId, userId);
  const following = state.data?.following ?? false;
  const followers = state.data?.followers ?? 0;
  return (
    <div className="flex flex-col gap-2" data-testid="follow">
      <div className="flex items-center gap-3">
        {session && !isOwner ? (
          <Button
            variant={following ? 'secondary' : 'primary'}
            className="min-h-11"
            aria-pressed={following}
            disabled={state.isPending || toggle.isPending}
            onClick={() => toggle.mutate(!following)}
          >
            {following ? t('server.follow.following') : t('server.follow.follow')}
          </Button>
        ) : !session ? (
          <Link to="/login" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-300 hover:underline">
            {t('server.follow.login')}
          </Link>
        ) : null}
        <span className="text-sm text-slate-300" data-testid="followers">
          {t('server.follow.followers', { count: followers })}
        </span>
      </div>
      {following ? <p className="text-xs text-slate-400">{t('server.follow.hint')}</p> : null}
      <FormMessage error={toggle.isError ? errorText(toggle.error, t('server.follow.failed')) : null} />
    </div>
  );
}
