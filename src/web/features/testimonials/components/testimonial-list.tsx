import { Link } from 'react-router';
import type { Testimonial } from '../../../../shared/schemas/admin';
import { useT } from '../../../i18n/use-t';
import { formatDate } from '../../../lib/format';

/** Testimonials as quote cards: the text, the owner and their server. */
export function TestimonialList({ testimonials, limit }: { testimonials: readonly Testimonial[]; limit?: number }) {
  const { t } = useT();
  const shown = limit ? testimonials.slice(0, limit) : testimonials;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="testimonials">
      {shown.map((item) => (
        <li
          key={`${item.ownerName}-${item.createdAt}`}
          className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-5 shadow-xl shadow-black/20"
        >
          <blockquote className="flex-1 whitespace-pre-line break-words text-slate-100">
            <span aria-hidden="true" className="mr-1 text-2xl font-black leading-none text-brand-400">
              “
            </span>
            {item.testimonial}
          </blockquote>
          <figcaption className="flex items-center gap-3 text-sm">
            {item.serverPicture ? (
              <img
                src={item.serverPicture}
                alt=""
                width={256}
                height={256}
                loading="lazy"
                decoding="async"
                className="size-10 shrink-0 rounded-full object-cover"
              />
            ) : (
              <span
                aria-hidden="true"
                className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-500/20 font-bold text-violet-200"
              >
                {(item.serverName ?? item.ownerName).charAt(0).toUpperCase()}
              </span>
            )}
            <span className="min-w-0">
              <span className="block truncate font-semibold text-white">{item.ownerName}</span>
              <span className="block truncate text-slate-400">
                {item.serverId && item.serverName ? (
                  <Link to={`/servers/${item.serverId}`} className="hover:text-white hover:underline">
                    {item.serverName}
                  </Link>
                ) : (
                  t('landing.testimonials.serverOwner')
                )}{' '}
                · {formatDate(item.createdAt)}
              </span>
            </span>
          </figcaption>
        </li>
      ))}
    </ul>
  );
}
