import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useFollowState, useToggleFollow } from '../api/follow';

const count = new Intl.NumberFormat();

/**
 * Follow a server: its followers hear (in their inbox) when it comes back online or announces an
 * event. Shows the follower count; a visitor is asked to log in.
 */
export function FollowButton({ serverId, isOwner }: { serverId: string; isOwner: boolean }) {
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
            {following ? '★ Following' : '☆ Follow'}
          </Button>
        ) : !session ? (
          <Link to="/login" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-300 hover:underline">
            Log in to follow
          </Link>
        ) : null}
        <span className="text-sm text-slate-300" data-testid="followers">
          {count.format(followers)} {followers === 1 ? 'follower' : 'followers'}
        </span>
      </div>
      {following ? <p className="text-xs text-slate-400">You hear in your inbox when it comes back online or starts an event.</p> : null}
      <FormMessage error={toggle.isError ? errorText(toggle.error, 'Could not change it. Please try again.') : null} />
    </div>
  );
}
