import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../../../shared/limits';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextAreaField } from '../../../components/textarea-field';
import { errorText } from '../../../lib/api-client';
import { useEditReview } from '../api/edit-review';

/** The caller's one review of a server, after their vote: edited in place, never a second one. */
export function OwnReview({ serverId, review }: { serverId: string; review: string | null }) {
  const save = useEditReview(serverId);
  const [text, setText] = useState(review ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(text);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" data-testid="own-review">
      <TextAreaField
        label={review ? 'Your review (you can change it)' : 'Add a review to your vote'}
        value={text}
        maxLength={LIMITS.review}
        rows={3}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" variant="secondary" className="min-h-11 self-start" disabled={save.isPending || text.trim() === (review ?? '')}>
        {save.isPending ? 'Saving…' : 'Save review'}
      </Button>
      <FormMessage
        error={save.isError ? errorText(save.error, 'Your review could not be saved.') : null}
        success={save.isSuccess ? save.data : null}
      />
    </form>
  );
}
