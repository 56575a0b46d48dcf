import { useT } from '../../../i18n/use-t';
import { useTestimonials } from '../api/get-testimonials';
import { TestimonialList } from './testimonial-list';

/** "What owners say" on /subscriptions: the six newest testimonials, nothing while there are none. */
export function TestimonialsSection() {
  const { t } = useT();
  const { data } = useTestimonials();
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="owners-say" className="flex flex-col gap-4">
      <h2 id="owners-say" className="text-center text-2xl font-black text-white">
        {t('landing.testimonials.sectionTitle')}
      </h2>
      <TestimonialList testimonials={data} limit={6} />
    </section>
  );
}
