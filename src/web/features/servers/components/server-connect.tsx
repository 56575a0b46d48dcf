import type { ServerDetail } from '../../../../shared/schemas/server';
import { buttonClass } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { useT, type Translate } from '../../../i18n/use-t';
import { useSession } from '../../../lib/session';
import { useServerAction } from '../api/vote-server';

/**
 * A Connect link's label in the page's language. The API writes it in English (src/shared/connect.ts);
 * the link's own address says which game it opens. A link of no known kind keeps the API's label.
 */
function linkLabel(t: Translate, link: { label: string; url: string }): string {
  if (link.url.startsWith('fivem://')) return t('server.connect.linkFivem');
  if (link.url.startsWith('redm://')) return t('server.connect.linkRedm');
  if (link.url.startsWith('steam://')) return t('server.connect.linkSteam');
  if (link.url.startsWith('https://cfx.re/join/')) return t('server.connect.linkCfx');
  return link.label;
}

/**
 * What to do with the address, in the page's language: the API's English sentence
 * (src/shared/connect.ts) recognised by its wording, the address kept. An unknown one is shown as it is.
 */
function howToText(t: Translate, howTo: string): string {
  // The arrows (\u2192) and the apostrophe (\u2019) are escaped: one character past U+00FF in the
  // server's page renderer makes V8 hold its whole source (1.4 MB) as two bytes a character.
  let match = /^Or open (FiveM|RedM), press F8 and type: connect (\S+)$/.exec(howTo);
  if (match) return t('server.connect.howToF8', { game: match[1], address: match[2] });
  match = /^Or type in the game's console: connect (\S+)$/.exec(howTo);
  if (match) return t('server.connect.howToConsole', { address: match[1] });
  if (/^In Minecraft \(Java Edition\): Multiplayer \u2192 Add Server, paste the address\.$/.test(howTo))
    return t('server.connect.howToJava');
  match = /^In Minecraft \(Bedrock\): Play \u2192 Servers \u2192 Add Server, with address (\S+) and port (\d+)\.$/.exec(howTo);
  if (match) return t('server.connect.howToBedrock', { host: match[1], port: match[2] });
  if (/^Paste the address into the game\u2019s server browser\.$/.test(howTo)) return t('server.connect.howToBrowser');
  return howTo;
}

/**
 * "Play now": the address with a Copy button and the game's own Connect links (fivem://,
 * steam://, cfx.re). Pressing Connect also records the join (one per player; a repeat is fine),
 * so joins count people who went in. Nothing shows before the owner connects the game.
 */
export function ServerConnect({ server }: { server: Pick<ServerDetail, 'id' | 'connect' | 'viewer'> }) {
  const { t } = useT();
  const session = useSession();
  const join = useServerAction();
  const connect = server.connect;
  if (!connect) return null;

  const recordJoin = () => {
    const viewer = server.viewer;
    if (!session || !viewer || viewer.isOwner || viewer.joined) return;
    // Fire and forget: the game opens either way; a refused join (not confirmed, already joined) changes nothing here.
    join.mutate({ id: server.id, action: 'join' }, { onError: () => undefined });
  };

  return (
    <section
      aria-labelledby="connect-heading"
      data-testid="server-connect"
      className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/90 p-4 text-slate-100 sm:p-5"
    >
      <h2 id="connect-heading" className="font-semibold text-white">
        {t('server.connect.heading')}
      </h2>
      <div className="flex items-stretch gap-2">
        <code
          className="min-w-0 flex-1 select-all truncate rounded-xl border border-white/10 bg-black/30 px-3 py-2.5 font-mono text-sm"
          title={connect.address}
          data-testid="connect-address"
        >
          {connect.address}
        </code>
        {/* Where the game has no link (Minecraft), copying the address is how a player goes in. */}
        <CopyButton text={connect.address} onCopy={connect.links.length === 0 ? recordJoin : undefined} />
      </div>
      {connect.links.length > 0 ? (
        <div className="flex flex-col gap-2">
          {connect.links.map((link, i) => (
            <a
              key={link.url}
              href={link.url}
              onClick={recordJoin}
              className={buttonClass(i === 0 ? 'primary' : 'secondary', 'min-h-11 w-full')}
              {...(link.url.startsWith('http') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              {linkLabel(t, link)}
            </a>
          ))}
        </div>
      ) : null}
      <p className="text-xs text-slate-400">{howToText(t, connect.howTo)}</p>
    </section>
  );
}
