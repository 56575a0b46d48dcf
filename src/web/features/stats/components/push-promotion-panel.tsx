import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import type { Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { usePushCount } from '../api/get-push-count';
import { useSendMass } from '../api/send-mass';

/**
 * The push promotion form: player count (empty → the server's current players), an
 * optional event with name and time, and how many pushes the plan has left today.
 */
export function PushPromotionPanel({ server }: { server: Server }) {
  const { t } = useT();
  const text = useMessageText();
  const pushCount = usePushCount();
  const send = useSendMass();
  const [playerCount, setPlayerCount] = useState('');
  const [isEvent, setIsEvent] = useState(false);
  const [eventName, setEventName] = useState('');
  const [eventTime, setEventTime] = useState('');
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);

  const limit = pushCount.data?.limit ?? 0;
  const left = pushCount.data ? Math.max(0, limit - pushCount.data.count) : null;
  const noPlan = pushCount.data !== undefined && limit === 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const count = playerCount.trim();
    if (count !== '' && !/^\d+$/.test(count)) return setMessage({ error: MSG.playerCountInvalid });
    setMessage(null);
    try {
      const sent = await send.mutateAsync({
        serverId: server.id,
        playerCount: count === '' ? '' : Number(count),
        isEvent,
        eventName: isEvent ? eventName.trim() : undefined,
        eventTime: isEvent ? eventTime.trim() : undefined,
      });
      setMessage({
        success: t('owner.push.sent', { players: sent.playerCount, recipients: sent.recipients, remaining: sent.remaining }),
      });
      setPlayerCount('');
    } catch (error) {
      setMessage({ error: errorText(error, MSG.sendNotificationFailed) });
    }
  };

  return (
    <Panel
      id="push-heading"
      title={t('owner.push.title')}
      description={t('owner.push.description', { name: server.name })}
      action={
        left !== null && !noPlan ? (
          <p data-testid="pushes-left" className="rounded-full bg-white/5 px-3 py-1 text-sm font-semibold tabular-nums text-slate-200">
            {t('owner.push.left', { left, limit })}
          </p>
        ) : null
      }
    >
      {noPlan ? (
        <p role="note" className="rounded-xl border border-amber-300/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
          {text(MSG.pushNeedsPlan)}{' '}
          <Link to="/subscriptions" className="font-semibold underline">
            {t('owner.push.seePlans')}
          </Link>
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        <TextField
          label={t('owner.push.players')}
          inputMode="numeric"
          value={playerCount}
          onChange={(e) => setPlayerCount(e.target.value)}
          placeholder={String(server.currentPlayers)}
          hint={t('owner.push.playersHint', { count: server.currentPlayers })}
        />
        <label className="flex items-center gap-3 text-sm font-medium text-slate-200">
          <input type="checkbox" checked={isEvent} onChange={(e) => setIsEvent(e.target.checked)} className="size-4 accent-brand-500" />
          {t('owner.push.isEvent')}
        </label>
        {isEvent ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('owner.push.eventName')}
              value={eventName}
              maxLength={100}
              onChange={(e) => setEventName(e.target.value)}
              placeholder={t('owner.push.eventNamePlaceholder')}
            />
            <TextField
              label={t('owner.push.eventTime')}
              value={eventTime}
              maxLength={100}
              onChange={(e) => setEventTime(e.target.value)}
              placeholder={t('owner.push.eventTimePlaceholder')}
            />
          </div>
        ) : null}
        <FormMessage error={message?.error} success={message?.success} />
        <div>
          <Button type="submit" disabled={send.isPending || noPlan || left === 0}>
            {send.isPending ? t('owner.push.sending') : t('owner.push.send')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
