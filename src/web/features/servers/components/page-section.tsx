import type { ReactNode } from 'react';

/** A titled block of a page; `id` ties the heading to the section for screen readers. */
export function PageSection({
  id,
  title,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  /** One line under the title saying what the block holds. */
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id={id} className="text-xl font-bold text-white sm:text-2xl">
            {title}
          </h2>
          {description ? <p className="mt-1 text-sm text-slate-400">{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
