import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { displayNameSchema, type PlayerProfile } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { ProgressBar } from '../../../components/progress-bar';
import { TextField } from '../../../components/text-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { IMAGE_ACCEPT, imageFileError } from '../../../lib/image-file';
import { validate } from '../../../lib/validate';
import { useUpdatePlayer } from '../api/update-player';

/** Display name and picture; both go in one multipart save. */
export function ProfileEditor({ profile }: { profile: PlayerProfile }) {
  const { t } = useT();
  const fileId = useId();
  const [displayName, setDisplayName] = useState(profile.displayName);
  const [picture, setPicture] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);
  const update = useUpdatePlayer();

  // Object URLs hold the file in memory until revoked: one at a time, and none after leaving.
  const previewUrl = useRef<string | null>(null);
  const choose = (file: File | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = file ? URL.createObjectURL(file) : null;
    setPicture(file);
    setPreview(previewUrl.current);
  };
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  const onPick = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const invalid = imageFileError([file]);
    if (invalid) return setMessage({ error: invalid });
    setMessage(null);
    choose(file);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(displayNameSchema, displayName);
    if (parsed.error !== undefined) return setMessage({ error: parsed.error });
    setMessage(null);
    setProgress(picture ? 0 : null);
    try {
      await update.mutateAsync({ id: profile.id, displayName: parsed.data, picture, onProgress: picture ? setProgress : undefined });
      choose(null);
      setMessage({ success: t('landing.profileEditor.saved') });
    } catch (error) {
      setMessage({ error: errorText(error, picture ? MSG.avatarUploadFailed : MSG.saveProfileFailed) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 self-start rounded-2xl border border-white/10 bg-ink-900/80 p-5">
      <h2 className="text-lg font-semibold text-white">{t('landing.profileEditor.title')}</h2>
      <TextField
        label={t('landing.profileEditor.displayName')}
        value={displayName}
        maxLength={LIMITS.displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        hint={t('landing.profileEditor.displayNameHint', { length: displayName.length, max: LIMITS.displayName })}
      />
      <div className="flex flex-col gap-2">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-200">
          {t('landing.profileEditor.picture')}
        </label>
        <div className="flex items-center gap-3">
          {preview ? <img src={preview} alt={t('landing.profileEditor.preview')} className="size-12 rounded-full object-cover" /> : null}
          <input
            id={fileId}
            type="file"
            accept={IMAGE_ACCEPT}
            onChange={(e) => onPick(e.target.files)}
            className="block w-full min-w-0 text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-white/10 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-white/15"
          />
        </div>
        <p className="text-xs text-slate-400">{t('landing.profileEditor.pictureRules', { megabytes: LIMITS.uploadBytes / 1024 / 1024 })}</p>
      </div>
      {progress !== null ? <ProgressBar value={progress} label={t('landing.profileEditor.upload')} /> : null}
      <FormMessage error={message?.error} success={message?.success} />
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? t('landing.profileEditor.saving') : t('landing.profileEditor.save')}
      </Button>
    </form>
  );
}
