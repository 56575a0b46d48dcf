import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { customizeFieldsSchema, type Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Skeleton } from '../../../components/skeleton';
import { TextAreaField } from '../../../components/textarea-field';
import { TextField } from '../../../components/text-field';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useCustomizeServer, type CustomizeInput } from '../api/customize-server';
import { useFilterCategories } from '../api/get-filter-categories';
import { ColorField } from './color-field';
import { ContrastNote, lowContrast } from './contrast-note';
import { FilterChips } from './filter-chips';
import { GalleryManager } from './gallery-manager';
import { ImageUpload } from './image-upload';
import { ServerPreview } from './server-preview';

function initialFields(server: Server): CustomizeInput {
  return {
    name: server.name,
    statusMessage: server.statusMessage,
    bio: server.bio,
    backgroundColor: server.backgroundColor,
    textColor: server.textColor,
    discordLink: server.discordLink ?? '',
    filters: server.filters,
  };
}

/**
 * Edits one server: text, colours, Discord link and filters are saved together (Pro or Premium);
 * images upload one by one as they are picked. The preview follows every keystroke.
 */
export function ServerEditor({ server }: { server: Server }) {
  const { t } = useT();
  const plan = useSession()?.user.subscriptionPlan ?? '';
  const [fields, setFields] = useState(() => initialFields(server));
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);
  const categories = useFilterCategories();
  const save = useCustomizeServer();
  const set = <K extends keyof CustomizeInput>(key: K, value: CustomizeInput[K]) => {
    setFields((f) => ({ ...f, [key]: value }));
    setMessage(null);
  };
  const toggleFilter = (filter: string) =>
    set('filters', fields.filters.includes(filter) ? fields.filters.filter((f) => f !== filter) : [...fields.filters, filter]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!server.id) return setMessage({ error: MSG.serverMissing });
    const parsed = validate(customizeFieldsSchema, fields);
    if (parsed.error !== undefined) return setMessage({ error: parsed.error });
    try {
      const saved = await save.mutateAsync({ id: server.id, fields });
      setFields(initialFields(saved));
      setMessage({
        success: lowContrast(saved.backgroundColor, saved.textColor) ? t('owner.editor.savedLowContrast') : t('owner.editor.saved'),
      });
    } catch (error) {
      setMessage({ error: errorText(error, MSG.saveServerFailed) });
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_26rem] xl:grid-cols-[1fr_30rem]">
      <aside className="flex min-w-0 flex-col gap-3 lg:sticky lg:top-20 lg:order-2 lg:self-start" aria-label={t('owner.editor.preview')}>
        <h2 className="text-sm font-semibold uppercase tracking-wider text-slate-400">{t('owner.editor.preview')}</h2>
        <ServerPreview server={{ ...server, ...fields, discordLink: fields.discordLink.trim() || null }} />
      </aside>

      <div className="flex min-w-0 flex-col gap-6">
        {plan === '' ? (
          <p role="note" className="rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
            <T id="owner.editor.planNote" components={{ link: <Link to="/subscriptions" className="font-semibold underline" /> }} />
          </p>
        ) : null}

        {/* A field scrolled to (Tab, an error) stops above the sticky Save bar instead of under it. */}
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex flex-col gap-6 [&_input]:scroll-mb-40 [&_select]:scroll-mb-40 [&_textarea]:scroll-mb-40"
        >
          <Panel title={t('owner.editor.details')}>
            <TextField
              label={t('owner.editor.name')}
              value={fields.name}
              maxLength={LIMITS.serverName}
              onChange={(e) => set('name', e.target.value)}
              hint={`${fields.name.length}/${LIMITS.serverName}`}
            />
            <TextField
              label={t('owner.editor.status')}
              value={fields.statusMessage}
              maxLength={LIMITS.statusMessage}
              onChange={(e) => set('statusMessage', e.target.value)}
              hint={`${fields.statusMessage.length}/${LIMITS.statusMessage}`}
            />
            <TextAreaField
              label={t('owner.editor.bio')}
              value={fields.bio}
              maxLength={LIMITS.bio}
              rows={5}
              onChange={(e) => set('bio', e.target.value)}
            />
            <TextField
              label={t('owner.editor.discord')}
              type="url"
              value={fields.discordLink}
              placeholder="https://discord.gg/yourserver"
              onChange={(e) => set('discordLink', e.target.value)}
              hint={t('owner.editor.discordHint')}
            />
          </Panel>

          <Panel title={t('owner.editor.colours')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <ColorField label={t('owner.editor.background')} value={fields.backgroundColor} onChange={(v) => set('backgroundColor', v)} />
              <ColorField label={t('owner.editor.text')} value={fields.textColor} onChange={(v) => set('textColor', v)} />
            </div>
            <ContrastNote background={fields.backgroundColor} text={fields.textColor} />
          </Panel>

          <Panel title={t('owner.editor.filters', { count: fields.filters.length })}>
            <p className="text-sm text-slate-400">{t('owner.editor.filtersHelp')}</p>
            {categories.isPending ? (
              <Skeleton className="h-40" />
            ) : categories.isError ? (
              <p role="alert" className="text-sm text-red-300">
                {t('owner.editor.filtersFailed')}
              </p>
            ) : (
              <FilterChips categories={categories.data} selected={fields.filters} onToggle={toggleFilter} />
            )}
          </Panel>

          <div className="sticky bottom-3 z-10 flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/95 p-4 shadow-2xl backdrop-blur">
            <FormMessage error={message?.error} success={message?.success} />
            <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto sm:self-end">
              {save.isPending ? t('owner.editor.saving') : t('owner.editor.save')}
            </Button>
          </div>
        </form>

        <Panel title={t('owner.editor.images')}>
          <ImageUpload serverId={server.id} kind="profile" label={t('owner.editor.profilePicture')} hint={t('owner.editor.imageHint')} />
          <ImageUpload serverId={server.id} kind="banner" label={t('owner.editor.banner')} hint={t('owner.editor.bannerHint')} />
          <GalleryManager server={server} />
        </Panel>
      </div>
    </div>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-4 sm:p-6">
      <legend className="float-left mb-1 w-full text-lg font-semibold text-white">{title}</legend>
      {children}
    </fieldset>
  );
}
