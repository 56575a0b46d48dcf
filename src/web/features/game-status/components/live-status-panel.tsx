import { useState, type FormEvent } from 'react';
import type { GameStatusView } from '../../../../shared/schemas/game-status';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-client';
import { useClearGameAddress } from '../api/clear-game-address';
import { useGameStatus } from '../api/get-game-status';
import { useGames } from '../api/get-games';
import { useSetGameAddress } from '../api/set-game-address';
import { ClaimBox } from './claim-box';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One line for the last query: "Online, 87/128 players" or why it failed. While the address waits
 * for verification the line says that nobody else sees it, so an owner does not think it is live.
 */
export function statusLine(status: GameStatusView): { text: string; tone: 'ok' | 'bad' | 'idle' } {
  if (!status.host) return { text: 'Not connected: player counts come from the game once you add its address.', tone: 'idle' };
  const privately = status.claim?.status === 'pending' ? ' (only you see this until verified)' : '';
  if (status.online)
    return {
      text: `Online, ${status.currentPlayers}${status.maxPlayers !== null ? `/${status.maxPlayers}` : ''} players${privately}`,
      tone: 'ok',
    };
  if (status.error) return { text: `${status.online === false ? `Offline: ${status.error}` : status.error}${privately}`, tone: 'bad' };
  return { text: 'Waiting for the first answer…', tone: 'idle' };
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
  const line = current ? statusLine(current) : undefined;
  return (
    <section
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/60 p-5"
      aria-labelledby="live-status"
      data-testid="live-status"
    >
      <div>
        <h2 id="live-status" className="text-lg font-semibold">
          Live status
        </h2>
        <p className="text-sm text-slate-400">
          Player counts on this site come from your game server itself, never from a number typed in.
        </p>
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
            <span className="block text-xs text-slate-400">Last asked {when.format(new Date(current.lastPolledAt))}</span>
          ) : null}
        </p>
      ) : null}
      {current?.host && current.claim ? <ClaimBox serverId={serverId} status={current} claim={current.claim} /> : null}
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_2fr_7rem]">
        <SelectField
          label="Game"
          value={game}
          onChange={(e) => onGame(e.target.value)}
          options={(games.data ?? []).map((g) => ({ value: g.id, label: g.label }))}
        />
        <TextField
          label="Server address"
          placeholder="play.example.com"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          autoComplete="off"
        />
        <TextField label="Port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
        <div className="flex flex-wrap items-center gap-2 sm:col-span-3">
          <Button type="submit" disabled={save.isPending || !host.trim()}>
            {save.isPending ? 'Asking the server…' : 'Save and check now'}
          </Button>
          {current?.host ? (
            <Button variant="ghost" onClick={() => clear.mutate(undefined, { onSuccess: refetch })} disabled={clear.isPending}>
              Disconnect
            </Button>
          ) : null}
        </div>
      </form>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, 'Failed to save the server address.')
            : clear.isError
              ? errorText(clear.error, 'Failed to disconnect.')
              : null
        }
      />
    </section>
  );
}
