import { Skeleton } from '../../../components/skeleton';

/** What an admin panel shows while its data loads or when it failed. */
export function LoadState({
  pending,
  error,
  label,
  height = 'h-40',
}: {
  pending: boolean;
  error: boolean;
  label: string;
  height?: string;
}) {
  if (pending) return <Skeleton className={height} />;
  if (error) {
    return (
      <p role="alert" className="text-sm text-red-300">
        Failed to load {label}.
      </p>
    );
  }
  return null;
}
