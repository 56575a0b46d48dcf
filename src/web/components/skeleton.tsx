/** A grey pulsing block that holds the place of content still loading; still under reduced motion. */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded-xl bg-white/10 motion-reduce:animate-none ${className}`} />;
}
