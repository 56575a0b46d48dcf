/** An inline error (role=alert, announced) or success note under a form. Renders nothing when empty. */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) {
    return (
      <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3.5 py-2.5 text-sm text-red-200">
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p role="status" className="rounded-xl border border-emerald-500/30 bg-emerald-500/10 px-3.5 py-2.5 text-sm text-emerald-200">
        {success}
      </p>
    );
  }
  return null;
}
