// The frame of the signed-out pages (sign-in, sign-up, e-mail verification, invitations):
// the product mark, one centred card, a line under it.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { LogoMark } from '../ui/icons';

export function AuthFrame({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="relative flex min-h-screen flex-col items-center justify-center overflow-hidden px-4 py-12">
      <div
        className="pointer-events-none absolute inset-x-0 top-0 h-80 bg-[radial-gradient(ellipse_at_top,var(--color-accent-100),transparent_65%)] opacity-70"
        aria-hidden="true"
      />
      <Link href="/" className="relative mb-8 flex items-center gap-2.5 text-base font-semibold tracking-tight text-zinc-900">
        <LogoMark className="size-8" />
        Browser Router
      </Link>
      <div className="relative w-full max-w-[400px] rounded-xl border border-zinc-200 bg-white p-8 shadow-sm">
        <div className="mb-6 space-y-1.5">
          <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          {description && <div className="text-sm text-zinc-500">{description}</div>}
        </div>
        {children}
      </div>
      {footer && <div className="relative mt-6 text-sm text-zinc-500">{footer}</div>}
    </div>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="font-medium text-accent-600 hover:text-accent-700">
      {children}
    </Link>
  );
}
