import { useEffect, useRef } from 'react';
import { useT } from '../i18n/use-t';

/**
 * A full-screen image viewer on the native <dialog> (focus trapped, Escape closes). Arrow keys
 * and the Previous / Next buttons move through `images`; `index` null means closed.
 */
export function Lightbox({
  images,
  index,
  onIndex,
  label,
}: {
  images: readonly string[];
  index: number | null;
  onIndex: (index: number | null) => void;
  label: string;
}) {
  const { t } = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const open = index !== null && images[index] !== undefined;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const count = images.length;
  const go = (step: number) => index !== null && onIndex((index + step + count) % count);

  return (
    <dialog
      ref={ref}
      aria-label={label}
      onCancel={(e) => {
        e.preventDefault();
        onIndex(null);
      }}
      onClick={(e) => {
        if (e.target === ref.current) onIndex(null);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') go(1);
        if (e.key === 'ArrowLeft') go(-1);
      }}
      className="m-auto max-h-[100dvh] max-w-[100vw] bg-transparent p-0 text-white backdrop:bg-black/85"
    >
      {open ? (
        <figure className="flex flex-col items-center gap-3 p-3 sm:p-6">
          <img
            src={images[index]}
            alt={t('common.lightbox.image', { label, number: index + 1, count })}
            className="max-h-[78dvh] max-w-[92vw] rounded-xl object-contain shadow-2xl"
          />
          <figcaption className="flex items-center gap-2 text-sm">
            {count > 1 ? (
              <button type="button" onClick={() => go(-1)} className="rounded-lg bg-white/10 px-3 py-2 hover:bg-white/20">
                {t('common.lightbox.previous')}
              </button>
            ) : null}
            <span className="px-2 tabular-nums text-slate-300">
              {index + 1} / {count}
            </span>
            {count > 1 ? (
              <button type="button" onClick={() => go(1)} className="rounded-lg bg-white/10 px-3 py-2 hover:bg-white/20">
                {t('common.lightbox.next')}
              </button>
            ) : null}
            <button type="button" onClick={() => onIndex(null)} className="rounded-lg bg-white/10 px-3 py-2 hover:bg-white/20">
              {t('common.lightbox.close')}
            </button>
          </figcaption>
        </figure>
      ) : null}
    </dialog>
  );
}
