import { useId, useRef, useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { FormMessage } from '../../../components/form-message';
import { ProgressBar } from '../../../components/progress-bar';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { IMAGE_ACCEPT, imageFileError } from '../../../lib/image-file';
import { SERVER_IMAGE_UPLOADS, useUploadServerImage, type ServerImageKind } from '../api/upload-server-image';

/**
 * A file picker that uploads at once and shows the progress. Files are checked here first against
 * the server's rules (images only, 5 MB, gallery room), so a wrong file fails before it is sent.
 */
export function ImageUpload({
  serverId,
  kind,
  label,
  hint,
  max = 1,
}: {
  serverId: string;
  kind: ServerImageKind;
  label: string;
  hint: string;
  /** How many files may go in one pick (gallery: the room left). */
  max?: number;
}) {
  const id = useId();
  const { t } = useT();
  const text = useMessageText();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadServerImage();
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);
  const full = max < 1;

  const onFiles = async (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (input.current) input.current.value = '';
    if (files.length === 0) return;
    if (!serverId) return setMessage({ error: MSG.serverMissing });
    const invalid = imageFileError(files, max);
    if (invalid) return setMessage({ error: invalid });
    setMessage(null);
    setProgress(0);
    try {
      await upload.mutateAsync({ id: serverId, kind, files, onProgress: setProgress });
      setMessage({ success: t('owner.upload.done', { count: files.length }) });
    } catch (error) {
      setMessage({ error: errorText(error, SERVER_IMAGE_UPLOADS[kind].failed) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={IMAGE_ACCEPT}
        multiple={max > 1}
        disabled={upload.isPending || full}
        aria-describedby={`${id}-hint`}
        onChange={(e) => void onFiles(e.target.files)}
        className="block w-full text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-white/10 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-white/15 disabled:opacity-50"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-400">
        {full ? text(MSG.galleryFull) : hint}
      </p>
      {progress !== null ? <ProgressBar value={progress} label={t('owner.upload.progress', { label })} /> : null}
      <FormMessage error={message?.error} success={message?.success} />
    </div>
  );
}
