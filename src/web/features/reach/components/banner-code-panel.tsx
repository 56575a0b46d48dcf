import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';

const SIZES = [
  { value: '468x60', label: '468 × 60' },
  { value: '560x95', label: '560 × 95' },
] as const;
type Size = (typeof SIZES)[number]['value'];

/** The embed code for a live banner, in the three forms forums, sites and READMEs take (`label`: a message id). */
export function bannerSnippets(
  origin: string,
  serverId: string,
  name: string,
  size: Size,
): { image: string; snippets: Array<{ format: string; label: MessageId; code: string }> } {
  const [width, height] = size.split('x');
  const page = `${origin}/servers/${serverId}`;
  const image = `${origin}/servers/${serverId}/banner.png?size=${size}`;
  const alt = name.replace(/["<>[\]]/g, '');
  return {
    image,
    snippets: [
      {
        format: 'html',
        label: 'owner.banner.html',
        // eslint-disable-next-line lingui/no-unlocalized-strings -- HTML embed code to paste, the same in every language
        code: `<a href="${page}"><img src="${image}" width="${width}" height="${height}" alt="${alt}"></a>`,
      },
      { format: 'bbcode', label: 'owner.banner.bbcode', code: `[url=${page}][img]${image}[/img][/url]` },
      { format: 'markdown', label: 'owner.banner.markdown', code: `[![${alt}](${image})](${page})` },
    ],
  };
}

/**
 * "Live banner": a preview of the banner (name, game, players now, rank, drawn from the live data)
 * and the code to paste into a forum signature, a website or a Discord post, with Copy buttons.
 */
export function BannerCodePanel({ serverId, name }: { serverId: string; name: string }) {
  const { t } = useT();
  const [size, setSize] = useState<Size>('468x60');
  const { image, snippets } = bannerSnippets(window.location.origin, serverId, name, size);
  const [width, height] = size.split('x').map(Number);
  return (
    <Panel id="banner-heading" title={t('owner.banner.title')} description={t('owner.banner.intro')}>
      <div data-testid="banner-code" className="flex flex-col gap-4">
        <Segmented label={t('owner.banner.size')} options={SIZES} value={size} onChange={setSize} />
        <div className="overflow-x-auto rounded-xl border border-white/10 bg-black/20 p-3">
          <img src={image} width={width} height={height} alt={t('owner.banner.alt', { name })} className="max-w-none" />
        </div>
        {snippets.map((s) => (
          <div key={s.format} className="flex flex-col gap-1.5">
            <span className="text-sm font-medium text-slate-200">{t(s.label)}</span>
            <div className="flex items-stretch gap-2">
              <code
                className="min-w-0 flex-1 select-all overflow-x-auto whitespace-nowrap rounded-xl border border-white/10 bg-black/30 px-3 py-2.5 font-mono text-xs text-slate-200"
                data-testid={`banner-code-${s.format}`}
              >
                {s.code}
              </code>
              <CopyButton text={s.code} label={t('owner.banner.copy', { format: t(s.label) })} />
            </div>
          </div>
        ))}
      </div>
    </Panel>
  );
}
