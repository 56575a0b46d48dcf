import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';

const SIZES = [
  { value: '468x60', label: '468 × 60' },
  { value: '560x95', label: '560 × 95' },
] as const;
type Size = (typeof SIZES)[number]['value'];

/** The embed code for a live banner, in the three forms forums, sites and READMEs take. */
export function bannerSnippets(origin: string, serverId: string, name: string, size: Size) {
  const [width, height] = size.split('x');
  const page = `${origin}/servers/${serverId}`;
  const image = `${origin}/servers/${serverId}/banner.png?size=${size}`;
  const alt = name.replace(/["<>[\]]/g, '');
  return {
    image,
    snippets: [
      { label: 'HTML', code: `<a href="${page}"><img src="${image}" width="${width}" height="${height}" alt="${alt}"></a>` },
      { label: 'BBCode', code: `[url=${page}][img]${image}[/img][/url]` },
      { label: 'Markdown', code: `[![${alt}](${image})](${page})` },
    ],
  };
}

/**
 * "Live banner": a preview of the banner (name, game, players now, rank, drawn from the live data)
 * and the code to paste into a forum signature, a website or a Discord post, with Copy buttons.
 */
export function BannerCodePanel({ serverId, name }: { serverId: string; name: string }) {
  const [size, setSize] = useState<Size>('468x60');
  const { image, snippets } = bannerSnippets(window.location.origin, serverId, name, size);
  const [width, height] = size.split('x').map(Number);
  return (
    <Panel
      id="banner-heading"
      title="Live banner"
      description="Show your server's live players and rank on forums and websites. The banner updates itself every minute."
    >
      <div data-testid="banner-code" className="flex flex-col gap-4">
        <Segmented label="Banner size" options={SIZES} value={size} onChange={setSize} />
        <div className="overflow-x-auto rounded-xl border border-white/10 bg-black/20 p-3">
          <img src={image} width={width} height={height} alt={`Live banner of ${name}`} className="max-w-none" />
        </div>
        {snippets.map((s) => (
          <div key={s.label} className="flex flex-col gap-1.5">
            <span className="text-sm font-medium text-slate-200">{s.label}</span>
            <div className="flex items-stretch gap-2">
              <code
                className="min-w-0 flex-1 select-all overflow-x-auto whitespace-nowrap rounded-xl border border-white/10 bg-black/30 px-3 py-2.5 font-mono text-xs text-slate-200"
                data-testid={`banner-code-${s.label.toLowerCase()}`}
              >
                {s.code}
              </code>
              <CopyButton text={s.code} label={`Copy ${s.label}`} />
            </div>
          </div>
        ))}
      </div>
    </Panel>
  );
}
