'use client';
// A snippet to paste somewhere else: a title bar with the language and a copy button, then the code.
import type { ReactNode } from 'react';
import { cn } from './cn';
import { CopyButton } from './copy-button';

/** `wrap` breaks long lines (a URL) instead of scrolling sideways. */
export function CodeBlock({
  title,
  code,
  label,
  wrap = false,
  className,
  children,
}: {
  title: ReactNode;
  code: string;
  label: string;
  wrap?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <figure aria-label={label} className={cn('overflow-hidden rounded-lg border border-zinc-800 bg-zinc-950', className)}>
      <figcaption className="flex items-center justify-between gap-3 border-b border-zinc-800 bg-zinc-900 py-1.5 pr-1.5 pl-3.5">
        <span className="text-[12px] font-medium text-zinc-300">{title}</span>
        <CopyButton value={code} variant="ghost" className="text-zinc-300! hover:bg-zinc-800! hover:text-white!" />
      </figcaption>
      <pre className={cn('px-4 py-3.5 font-mono text-[12.5px] leading-relaxed text-zinc-100', wrap ? 'break-all whitespace-pre-wrap' : 'overflow-x-auto')}>
        <code>{children ?? code}</code>
      </pre>
    </figure>
  );
}
