import { Card } from './card';

/** A page that a later issue builds: its title and what will be there, so no route is blank. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-10 sm:py-16">
      <Card>
        <p className="mb-2 text-xs font-semibold uppercase tracking-widest text-brand-400">Coming soon</p>
        <h1 className="text-2xl font-bold text-white sm:text-3xl">{title}</h1>
        <p className="mt-3 text-slate-300">{description}</p>
      </Card>
    </section>
  );
}
