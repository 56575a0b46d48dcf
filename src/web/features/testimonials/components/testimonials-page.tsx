import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Skeleton } from '../../../components/skeleton';
import { useT } from '../../../i18n/use-t';
import { useSession } from '../../../lib/session';
import { useTestimonials } from '../api/get-testimonials';
import { TestimonialForm } from './testimonial-form';
import { TestimonialList } from './testimonial-list';

/** `/testimonials` (owners): every testimonial, and the form while this owner has none. */
export function TestimonialsPage() {
  const { t } = useT();
  const username = useSession()?.user.username;
  const { data, isPending, isError } = useTestimonials();
  const [thanks, setThanks] = useState(false);
  const mine = data?.some((testimonial) => testimonial.ownerName === username) ?? false;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-black tracking-tight text-white">{t('landing.testimonials.title')}</h1>
        <p className="text-slate-400">{t('landing.testimonials.intro')}</p>
      </header>
      <FormMessage success={thanks ? t('landing.testimonials.thanks') : null} />
      {data && !mine ? <TestimonialForm onDone={() => setThanks(true)} /> : null}
      {isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label={t('landing.testimonials.loading')}>
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : isError ? (
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {t('landing.testimonials.loadFailed')}
        </p>
      ) : data.length === 0 ? (
        <EmptyState title={t('landing.testimonials.emptyTitle')}>{t('landing.testimonials.emptyText')}</EmptyState>
      ) : (
        <TestimonialList testimonials={data} />
      )}
    </div>
  );
}
