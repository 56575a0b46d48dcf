import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import type { Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-client';
import { usePushCount } from '../api/get-push-count';
import { useSendMass } from '../api/send-mass';

/**
 * The push promotion form: player count (empty → the server's current players), an
 * optional event with name and time, and how many pushes the plan has left today.
 */
export function PushPromotionPanel({ server }: { server: Server }) {
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
      const devices = `${sent.recipients} device${sent.recipients === 1 ? '' : 's'}`;
      setMessage({
        success: `Promotion sent (${sent.playerCount} players online): pushed to ${devices}, and in the inbox of every player who joined. ${sent.remaining} left today.`,
      });
      setPlayerCount('');
    } catch (error) {
      setMessage({ error: errorText(error, MSG.sendNotificationFailed) });
    }
  };

  return (
    <Panel
      id="push-heading"
      title="Push promotion"
      description={`Tell players about ${server.name}: a notification on their devices and a message in the inbox of everyone who joined.`}
      action={
        left !== null && !noPlan ? (
          <p data-testid="pushes-left" className="rounded-full bg-white/5 px-3 py-1 text-sm font-semibold tabular-nums text-slate-200">
            {left} of {limit} pushes left today
          </p>
        ) : null
      }
    >
      {noPlan ? (
        <p role="note" className="rounded-xl border border-amber-300/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
          {MSG.pushNeedsPlan}{' '}
          <Link to="/subscriptions" className="font-semibold underline">
            See plans
          </Link>
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        <TextField
          label="Players online"
          inputMode="numeric"
          value={playerCount}
          onChange={(e) => setPlayerCount(e.target.value)}
          placeholder={String(server.currentPlayers)}
          hint={`Leave empty to use the current count (${server.currentPlayers}).`}
        />
        <label className="flex items-center gap-3 text-sm font-medium text-slate-200">
          <input type="checkbox" checked={isEvent} onChange={(e) => setIsEvent(e.target.checked)} className="size-4 accent-brand-500" />
          This is an event
        </label>
        {isEvent ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Event name"
              value={eventName}
              maxLength={100}
              onChange={(e) => setEventName(e.target.value)}
              placeholder="Bank heist night"
            />
            <TextField
              label="Event time"
              value={eventTime}
              maxLength={100}
              onChange={(e) => setEventTime(e.target.value)}
              placeholder="Tonight 20:00 CET"
            />
          </div>
        ) : null}
        <FormMessage error={message?.error} success={message?.success} />
        <div>
          <Button type="submit" disabled={send.isPending || noPlan || left === 0}>
            {send.isPending ? 'Sending…' : 'Send promotion'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
