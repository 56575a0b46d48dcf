import { useState } from 'react';
import { Lightbox } from '../../../components/lightbox';
import { useT } from '../../../i18n/use-t';

/** The gallery as thumbnails; each is a button that opens the lightbox at that image. */
export function ServerGallery({ images, name }: { images: readonly string[]; name: string }) {
  const { t } = useT();
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return <p className="text-sm opacity-70">{t('server.gallery.empty')}</p>;
  return (
    <>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
        {images.map((src, i) => (
          <li key={src}>
            <button
              type="button"
              onClick={() => setOpen(i)}
              className="block aspect-video w-full overflow-hidden rounded-xl border border-current/15 transition hover:brightness-110"
              aria-label={t('server.gallery.open', { index: i + 1, count: images.length })}
            >
              <img src={src} alt="" loading="lazy" decoding="async" className="size-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      <Lightbox images={images} index={open} onIndex={setOpen} label={t('server.gallery.label', { name })} />
    </>
  );
}
