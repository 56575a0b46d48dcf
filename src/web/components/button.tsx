import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const BASE =
  'tap inline-flex items-center justify-center gap-2 rounded-xl px-5 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 disabled:cursor-not-allowed disabled:opacity-50';
const PRIMARY = 'bg-gradient-to-r from-brand-600 to-accent-500 text-white shadow-lg shadow-brand-600/25 hover:brightness-110';
const SECONDARY = 'border border-white/15 bg-white/5 text-slate-100 hover:bg-white/10';
const GHOST = 'text-slate-300 hover:bg-white/5 hover:text-white';
const DANGER = 'bg-red-600 text-white shadow-lg shadow-red-900/30 hover:bg-red-500';
const VARIANTS: Record<Variant, string> = { primary: PRIMARY, secondary: SECONDARY, ghost: GHOST, danger: DANGER };

/** Class names of a button, for elements that must look like one (links). */
export function buttonClass(variant: Variant = 'primary', extra = ''): string {
  return `${BASE} ${VARIANTS[variant]} ${extra}`;
}

export function Button({ variant = 'primary', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type="button" className={buttonClass(variant, className)} {...props} />;
}

export function ButtonLink({ variant = 'primary', className = '', ...props }: LinkProps & { variant?: Variant }) {
  return <Link className={buttonClass(variant, className)} {...props} />;
}
