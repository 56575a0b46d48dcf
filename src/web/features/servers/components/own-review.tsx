import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../../../shared/limits';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextAreaField } from '../../../components/textarea-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useEditReview } from '../api/edit-review';

/** The caller's one review of a server, after their vote: edited in place, never a second one. */
export function OwnReview({ serverId, review }: { serverId: string; review: string | null }) {
  const { t } = useT();
  const save = useEditReview(serverId);
  const [text, setText] = useState(review ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(text);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" data-testid="own-review">
      <TextAreaField
        label={review ? t('server.ownReview.editLabel') : t('server.ownReview.addLabel')}
        value={text}
        maxLength={LIMITS.review}
        rows={3}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" variant="secondary" className="min-h-11 self-start" disabled={save.isPending || text.trim() === (review ?? '')}>
        {save.isPending ? t('server.ownReview.saving') : t('server.ownReview.save')}
      </Button>
      <FormMessage
        error={save.isError ? errorText(save.error, t('server.ownReview.failed')) : null}
        success={save.isSuccess ? save.data : null}
      />
    </form>
  );
}
