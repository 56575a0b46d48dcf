import { useState } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import type { Server, ViewerState } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { ThumbIcon } from '../../../components/icons';
import { FormMessage } from '../../../components/form-message';
import { TextAreaField } from '../../../components/textarea-field';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT } from '../../../i18n/use-t';
import { ApiError, errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { ConfirmEmailNotice } from '../../auth';
import { useServerAction, type ServerAction } from '../api/vote-server';
import { OwnReview } from './own-review';

const DONE: Record<ServerAction, MessageId> = {
  join: 'server.actions.joinedDone',
  like: 'server.actions.likedDone',
  dislike: 'server.actions.dislikedDone',
};

/**
 * Join / Like / Dislike with an optional review: each is locked once done in this view,
 * and from the start when the server says the caller already did it. One vote per user, so a like
 * also locks Dislike. Owners see all three disabled.
 */
export function ServerActions({
  server,
  viewer,
  onDone,
}: {
  server: Server;
  viewer: ViewerState | null;
  onDone: (server: Server) => void;
}) {
  const { t } = useT();
  const session = useSession();
  const action = useServerAction();
  // What this view did, or what the page (refetched after a join from Play now) says.
  const [joinedHere, setJoined] = useState(false);
  const joined = joinedHere || viewer?.joined === true;
  const [voteHere, setVote] = useState<'like' | 'dislike' | null>(null);
  const vote = voteHere ?? viewer?.vote ?? null;
  const [review, setReview] = useState('');
  const [pending, setPending] = useState<ServerAction | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);
  const owner = viewer?.isOwner === true;

  const run = async (kind: ServerAction) => {
    if (!session) return setMessage({ error: MSG.loginRequired });
    if (kind !== 'join' && review.length > LIMITS.review) return setMessage({ error: MSG.reviewTooLong });
    setPending(kind);
    setMessage(null);
    try {
      const updated = await action.mutateAsync({ id: server.id, action: kind, review: kind === 'join' ? undefined : review });
      if (kind === 'join') setJoined(true);
      else {
        setVote(kind);
        setReview('');
      }
      setMessage({ success: t(DONE[kind]) });
      onDone(updated);
    } catch (error) {
      // "Already done" answers lock the button too: the server knows better than this view.
      if (error instanceof ApiError && error.status === 409) {
        if (kind === 'join') setJoined(true);
        else setVote(kind);
      }
      setMessage({ error: errorText(error, kind === 'join' ? MSG.joinFailed : MSG.actionFailed) });
    } finally {
      setPending(null);
    }
  };

  const voteLocked = owner || vote !== null;
  return (
    <section
      aria-labelledby="actions-heading"
      className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/90 p-4 text-slate-100 sm:p-5"
    >
      <h2 id="actions-heading" className="font-semibold text-white">
        {t('server.actions.heading')}
      </h2>
      {owner ? <p className="text-sm text-slate-400">{t('server.actions.ownServer')}</p> : null}
      {owner ? null : <ConfirmEmailNotice />}
      <div className="grid grid-cols-3 gap-2 [&>button]:px-2">
        <Button onClick={() => void run('join')} disabled={owner || joined || pending !== null} aria-pressed={joined}>
          {joined ? t('server.actions.joined') : pending === 'join' ? t('server.actions.joining') : t('server.actions.join')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void run('like')}
          disabled={voteLocked || pending !== null}
          aria-pressed={vote === 'like'}
        >
          <ThumbIcon />
          {vote === 'like' ? t('server.actions.liked') : pending === 'like' ? t('server.actions.liking') : t('server.actions.like')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void run('dislike')}
          disabled={voteLocked || pending !== null}
          aria-pressed={vote === 'dislike'}
        >
          <ThumbIcon down />
          {vote === 'dislike'
            ? t('server.actions.disliked')
            : pending === 'dislike'
              ? t('server.actions.sending')
              : t('server.actions.dislike')}
        </Button>
      </div>
      {!owner && vote !== null && viewer?.vote ? <OwnReview serverId={server.id} review={viewer.review} /> : null}
      {voteLocked ? null : (
        <TextAreaField
          label={t('server.actions.reviewLabel')}
          value={review}
          maxLength={LIMITS.review}
          rows={3}
          placeholder={t('server.actions.reviewPlaceholder')}
          onChange={(e) => setReview(e.target.value)}
        />
      )}
      <FormMessage error={message?.error} success={message?.success} />
      {message?.error === MSG.loginRequired ? (
        <p className="text-sm text-slate-300">
          <T
            id="server.actions.loginToVote"
            components={{
              login: <Link to="/login" className="font-semibold text-brand-400 hover:underline" />,
              register: <Link to="/register" className="font-semibold text-brand-400 hover:underline" />,
            }}
          />
        </p>
      ) : null}
    </section>
  );
}
