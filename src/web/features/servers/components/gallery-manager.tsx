import { useState } from 'react';
import { LIMITS } from '../../../../shared/limits';
import type { Server } from '../../../../shared/schemas/server';
import { FormMessage } from '../../../components/form-message';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useRemoveGalleryImage } from '../api/remove-gallery-image';
import { ImageUpload } from './image-upload';

/** The gallery on the dashboard: the images with a remove button each, and an upload for the room left. */
export function GalleryManager({ server }: { server: Server }) {
  const { t } = useT();
  const remove = useRemoveGalleryImage();
  const [error, setError] = useState<string | null>(null);
  const room = LIMITS.galleryImages - server.galleryImages.length;

  const onRemove = async (url: string) => {
    setError(null);
    try {
      await remove.mutateAsync({ id: server.id, url });
    } catch (err) {
      setError(errorText(err, t('owner.gallery.removeFailed')));
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <ImageUpload
        serverId={server.id}
        kind="gallery"
        label={t('owner.gallery.label', { count: server.galleryImages.length, max: LIMITS.galleryImages })}
        hint={t('owner.gallery.hint', { room })}
        max={room}
      />
      {server.galleryImages.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="gallery-manager">
          {server.galleryImages.map((src, i) => (
            <li key={src} className="group relative aspect-video overflow-hidden rounded-lg border border-white/10">
              <img src={src} alt={t('owner.gallery.image', { n: i + 1 })} className="size-full object-cover" />
              <button
                type="button"
                disabled={remove.isPending}
                onClick={() => void onRemove(src)}
                aria-label={t('owner.gallery.remove', { n: i + 1 })}
                className="absolute top-1 right-1 grid size-7 place-items-center rounded-full bg-black/70 text-white hover:bg-red-600 disabled:opacity-50"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FormMessage error={error} />
    </div>
  );
}
