import type { ReactNode } from 'react';
import { Card } from '../../../components/card';

/** Centred card with a heading, shared by login, register and e-mail entry. */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div className="w-full max-w-md">
        <Card>
          <h1 className="text-2xl font-bold text-white">{title}</h1>
          <p className="mt-1.5 mb-6 text-sm text-slate-400">{subtitle}</p>
          {children}
        </Card>
        {footer ? <p className="mt-5 text-center text-sm text-slate-400">{footer}</p> : null}
      </div>
    </section>
  );
}
