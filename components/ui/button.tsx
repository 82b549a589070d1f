// Buttons and button-styled links. Variants: primary (the accent; one per view), secondary
// (bordered), ghost (table row actions), danger (the confirm button of a destructive dialog),
// danger-secondary (the button in a danger-zone card that opens that dialog), danger-ghost (row actions).
import Link from 'next/link';
import type { ButtonHTMLAttributes, ComponentProps } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'danger-ghost' | 'danger-secondary';
export type ButtonSize = 'sm' | 'md';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-accent-600 text-white shadow-xs hover:bg-accent-700 disabled:bg-accent-600/60',
  secondary: 'border border-zinc-300 bg-white text-zinc-800 shadow-xs hover:bg-zinc-50 disabled:text-zinc-400',
  ghost: 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:text-zinc-300',
  danger: 'bg-red-600 text-white shadow-xs hover:bg-red-700 disabled:bg-red-600/50',
  'danger-ghost': 'text-red-600 hover:bg-red-50 hover:text-red-700 disabled:text-red-300',
  'danger-secondary': 'border border-red-200 bg-white text-red-600 shadow-xs hover:border-red-300 hover:bg-red-50 disabled:text-red-300',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 rounded-md px-2.5 text-[13px]',
  md: 'h-9 gap-2 rounded-lg px-3.5 text-sm',
};

export function buttonClasses(variant: ButtonVariant = 'secondary', size: ButtonSize = 'md', className?: string) {
  return cn(
    'inline-flex shrink-0 items-center justify-center font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed [&_svg]:size-4',
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button while a request runs. */
  loading?: boolean;
}

export function Button({ variant, size, loading, disabled, className, children, type = 'button', ...props }: ButtonProps) {
  return (
    <button type={type} disabled={disabled || loading} aria-busy={loading || undefined} className={buttonClasses(variant, size, className)} {...props}>
      {loading && <Spinner />}
      {children}
    </button>
  );
}

export function ButtonLink({ variant, size, className, ...props }: ComponentProps<typeof Link> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
