import { ownerColors } from './owner-colors';
import type { Server } from '../../../../shared/schemas/server';
import { Tag } from '../../../components/tag';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useT } from '../../../i18n/use-t';
import { ServerHero } from './server-hero';

/** The dashboard's live preview: the page header and the start of the about block, in the chosen colours. */
export function ServerPreview({ server }: { server: Server }) {
  const { t } = useT();
  const label = useFilterLabels();
  return (
    <div data-testid="server-preview" className="flex flex-col gap-2">
      <ServerHero server={server} headingLevel={2} />
      <div className="rounded-2xl border border-white/10 bg-ink-900/80 p-4 text-slate-100" style={ownerColors(server)}>
        <p className="line-clamp-4 whitespace-pre-line break-words text-sm">{server.bio || t('owner.preview.bioEmpty')}</p>
        {server.filters.length > 0 ? (
          <ul className="mt-3 flex flex-wrap gap-1.5">
            {server.filters.map((f) => (
              <li key={f}>
                <Tag tone="inherit">{label.filter(f)}</Tag>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
