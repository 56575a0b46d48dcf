import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { ServerDetail } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { T, useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { dateFormat } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useNow } from '../../../lib/use-now';
import { useDailyVote, useDailyVoteState } from '../api/daily-vote';

/**
 * "You can vote again in 23 h 59 min.", "… in 4 min.", "… in less than a minute.", or null once the
 * time has come.
 */
function waitText(t: Translate, nextVoteAt: string | null, now: number): string | null {
  if (!nextVoteAt) return null;
  const ms = new Date(nextVoteAt).getTime() - now;
  if (ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('server.vote.againSoon');
  return minutes >= 60
    ? t('server.vote.againHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
    : t('server.vote.againMinutes', { minutes });
}

/**
 * The daily vote, as on every Minecraft and FiveM list: once every 24 hours, with the in-game name
 * for the owner's rewards. Shows the month's votes, and when the next vote may be cast.
 */
export function DailyVoteCard({ server }: { server: Pick<ServerDetail, 'id' | 'monthVotes' | 'viewer'> }) {
  const { t } = useT();
  const session = useSession();
  const isOwner = server.viewer?.isOwner === true;
  const state = useDailyVoteState(server.id, session !== null && !isOwner);
  const vote = useDailyVote(server.id);
  const [playerName, setPlayerName] = useState('');
  // The clock, read every 30 s so the time left counts down, and again when a vote is cast (its
  // next vote is 24 h from now, not from when the page opened).
  const [now, readClock] = useNow(30_000);

  const monthVotes = state.data?.monthVotes ?? server.monthVotes;
  const wait = waitText(t, state.data?.nextVoteAt ?? null, now);
  const month = dateFormat({ month: 'long', timeZone: 'UTC' }).format(now);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    vote.mutate(playerName, { onSettled: readClock });
  };

  return (
    <section
      aria-labelledby="daily-vote-heading"
      data-testid="daily-vote"
      className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/90 p-4 text-slate-100 sm:p-5"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="daily-vote-heading" className="font-semibold text-white">
          {t('server.vote.heading')}
        </h2>
        <p className="text-sm text-slate-300">
          <T
            id="server.vote.monthVotes"
            values={{ count: monthVotes, month }}
            components={{ strong: <strong className="tabular-nums text-white" data-testid="month-votes" /> }}
          />
        </p>
      </div>
      {!session ? (
        <p className="text-sm text-slate-300">
          <T
            id="server.vote.loginToVote"
            components={{ login: <Link to="/login" className="font-semibold text-brand-400 hover:underline" /> }}
          />
        </p>
      ) : isOwner ? (
        <p className="text-sm text-slate-400">{t('server.vote.ownerNote')}</p>
      ) : wait ? (
        <p role="status" className="text-sm text-emerald-200">
          {state.data?.status === 'held' ? t('server.vote.held') : t('server.vote.thanks')} {wait}
        </p>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-2">
          <TextField
            label={t('server.vote.playerName')}
            value={playerName}
            maxLength={32}
            autoComplete="nickname"
            onChange={(e) => setPlayerName(e.target.value)}
          />
          <Button type="submit" className="min-h-11" disabled={vote.isPending || state.isPending}>
            {vote.isPending ? t('server.vote.voting') : t('server.vote.vote')}
          </Button>
        </form>
      )}
      <FormMessage error={vote.isError ? errorText(vote.error, t('server.vote.failed')) : null} />
    </section>
  );
}
