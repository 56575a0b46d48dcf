import { useMessageText } from '../i18n/messages';

/**
 * An inline error (role=alert, announced) or success note under a form. Renders nothing when empty.
 * A message of the API or a shared schema (English) is shown in the page's language.
 */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  const message = useMessageText();
  if (error) {
    return (
      <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3.5 py-2.5 text-sm text-red-200">
        {message(error)}
      </p>
    );
  }
  if (success) {
    return (
      <p role="status" className="rounded-xl border border-emerald-500/30 bg-emerald-500/10 px-3.5 py-2.5 text-sm text-emerald-200">
        {message(success)}
      </p>
    );
  }
  return null;
}
