import { useState, type FormEvent } from 'react';
import type { GameStatusView } from '../../../../shared/schemas/game-status';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { useMessageText } from '../../../i18n/messages';
import { useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { dateFormat } from '../../../lib/format';
import { useClearGameAddress } from '../api/clear-game-address';
import { useGameStatus } from '../api/get-game-status';
import { useGames } from '../api/get-games';
import { useSetGameAddress } from '../api/set-game-address';
import { ClaimBox } from './claim-box';

/**
 * One line for the last query: "Online, 87/128 players" or why it failed. While the address waits
 * for verification the line says that nobody else sees it, so an owner does not think it is live.
 */
export function statusLine(
  t: Translate,
  message: (text: string) => string,
  status: GameStatusView,
): { text: string; tone: 'ok' | 'bad' | 'idle' } {
  if (!status.host) return { text: t('owner.live.notConnected'), tone: 'idle' };
  const privately = (line: string) => (status.claim?.status === 'pending' ? t('owner.live.private', { line }) : line);
  if (status.online)
    return {
      text: privately(
        status.maxPlayers !== null
          ? t('owner.live.onlineMax', { current: status.currentPlayers, max: status.maxPlayers })
          : t('owner.live.online', { current: status.currentPlayers }),
      ),
      tone: 'ok',
    };
  if (status.error) {
    const error = message(status.error);
    return { text: privately(status.online === false ? t('owner.live.offline', { error }) : error), tone: 'bad' };
  }
  return { text: t('owner.live.waiting'), tone: 'idle' };
}

/**
 * The dashboard's "Live status" (player counts from the game itself): the owner names the game and its address; the server
 * asks the game at once and shows the answer, then keeps asking every few minutes.
 */
export function LiveStatusPanel({ serverId }: { serverId: string }) {
  const status = useGameStatus(serverId);
  // The form starts from the stored address; a new key when it loads gives the form fresh state.
  return (
    <LiveStatusForm
      key={`${serverId}-${status.data?.host ?? ''}`}
      serverId={serverId}
      stored={status.data}
      refetch={() => void status.refetch()}
    />
  );
}

function LiveStatusForm({ serverId, stored, refetch }: { serverId: string; stored: GameStatusView | undefined; refetch: () => void }) {
  const { t } = useT();
  const message = useMessageText();
  const when = dateFormat({ dateStyle: 'medium', timeStyle: 'short' });
  const games = useGames();
  const save = useSetGameAddress(serverId);
  const clear = useClearGameAddress(serverId);
  const [game, setGame] = useState(stored?.game ?? 'fivem');
  const [host, setHost] = useState(stored?.host ?? '');
  const [port, setPort] = useState(String(stored?.port ?? 30120));

  const onGame = (id: string) => {
    setGame(id);
    const known = games.data?.find((g) => g.id === id);
    if (known) setPort(String(known.port));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ game, host: host.trim(), port: Number(port) });
  };

  // The stored status first: "Check now" and saving both write it, so it is the newest answer.
  const current = stored ?? save.data;
  const line = current ? statusLine(t, message, current) : undefined;
  return (
    <section
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/60 p-5"
      aria-labelledby="live-status"
      data-testid="live-status"
    >
      <div>
        <h2 id="live-status" className="text-lg font-semibold">
          {t('owner.live.title')}
        </h2>
        <p className="text-sm text-slate-400">{t('owner.live.intro')}</p>
      </div>
      {line ? (
        <p
          role="status"
          data-testid="live-status-line"
          className={`rounded-xl px-3 py-2 text-sm ${line.tone === 'ok' ? 'bg-emerald-500/10 text-emerald-300' : line.tone === 'bad' ? 'bg-red-500/10 text-red-300' : 'bg-white/5 text-slate-300'}`}
        >
          {line.text}
          {/* While pending, the claim box says when the game was last asked, beside what it answered. */}
          {current?.lastPolledAt && current.claim?.status !== 'pending' ? (
            <span className="block text-xs text-slate-400">
              {t('owner.live.lastAsked', { when: when.format(new Date(current.lastPolledAt)) })}
            </span>
          ) : null}
        </p>
      ) : null}
      {current?.host && current.claim ? <ClaimBox serverId={serverId} status={current} claim={current.claim} /> : null}
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_2fr_7rem]">
        <SelectField
          label={t('owner.live.game')}
          value={game}
          onChange={(e) => onGame(e.target.value)}
          options={(games.data ?? []).map((g) => ({ value: g.id, label: g.label }))}
        />
        <TextField
          label={t('owner.live.address')}
          placeholder="play.example.com"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          autoComplete="off"
        />
        <TextField label={t('owner.live.port')} inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
        <div className="flex flex-wrap items-center gap-2 sm:col-span-3">
          <Button type="submit" disabled={save.isPending || !host.trim()}>
            {save.isPending ? t('owner.live.asking') : t('owner.live.save')}
          </Button>
          {current?.host ? (
            <Button variant="ghost" onClick={() => clear.mutate(undefined, { onSuccess: refetch })} disabled={clear.isPending}>
              {t('owner.live.disconnect')}
            </Button>
          ) : null}
        </div>
      </form>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, t('owner.live.saveFailed'))
            : clear.isError
              ? errorText(clear.error, t('owner.live.disconnectFailed'))
              : null
        }
      />
    </section>
  );
}
