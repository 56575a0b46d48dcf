import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { testimonialBodySchema } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { TextAreaField } from '../../../components/textarea-field';
import { useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { validate } from '../../../lib/validate';
import { useCreateTestimonial } from '../api/create-testimonial';

/** The server's 409 is shown as "already submitted"; other errors show the server's text or the fallback. */
function testimonialError(error: unknown): string {
  if (error instanceof ApiError && (error.status === 409 || error.serverMessage === MSG.testimonialExists))
    return MSG.testimonialDuplicateShown;
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return MSG.testimonialFailed;
}

/** One testimonial per owner, 1 to 300 characters after trimming. */
export function TestimonialForm({ onDone }: { onDone: () => void }) {
  const { t } = useT();
  const create = useCreateTestimonial();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(testimonialBodySchema, { content });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      await create.mutateAsync(parsed.data.content);
      onDone();
    } catch (e) {
      setError(testimonialError(e));
    }
  };

  return (
    <Panel id="testimonial-form-heading" title={t('landing.testimonialForm.title')} description={t('landing.testimonialForm.description')}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        <TextAreaField
          label={t('landing.testimonialForm.label')}
          value={content}
          maxLength={LIMITS.testimonial}
          rows={4}
          placeholder={t('landing.testimonialForm.placeholder')}
          onChange={(e) => setContent(e.target.value)}
        />
        <FormMessage error={error} />
        <div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('landing.testimonialForm.submitting') : t('landing.testimonialForm.submit')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
