'use client';
// Two kinds of tabs. `TabNav`: links to sub-pages (a router's Providers, Keys, Settings, Connect),
// so each tab has its own URL. `Segmented`: a choice inside one view (the add-provider form kind).
import Link from 'next/link';
import type { ReactNode } from 'react';
import { cn } from './cn';

export interface TabLink {
  href: string;
  label: ReactNode;
  active: boolean;
  count?: number;
}

export function TabNav({ label, tabs, className }: { label: string; tabs: TabLink[]; className?: string }) {
  return (
    <nav aria-label={label} className={cn('-mb-px flex gap-6 overflow-x-auto border-b border-zinc-200', className)}>
      {tabs.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.active ? 'page' : undefined}
          className={cn(
            'flex items-center gap-2 border-b-2 px-0.5 pt-1 pb-2.5 text-sm font-medium whitespace-nowrap transition-colors',
            tab.active ? 'border-accent-600 text-zinc-900' : 'border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800',
          )}
        >
          {tab.label}
          {tab.count !== undefined && (
            <span
              className={cn('rounded-full px-1.5 py-px text-[11px] tabular-nums', tab.active ? 'bg-accent-50 text-accent-700' : 'bg-zinc-100 text-zinc-500')}
            >
              {tab.count}
            </span>
          )}
        </Link>
      ))}
    </nav>
  );
}

export interface SegmentedOption<V extends string> {
  value: V;
  label: ReactNode;
  description?: ReactNode;
}

/** A radio group drawn as side-by-side cards. */
export function Segmented<V extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: V;
  options: SegmentedOption<V>[];
  onChange: (value: V) => void;
  className?: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className={cn('grid gap-2', options.length === 2 ? 'grid-cols-2' : 'grid-cols-3', className)}>
      {options.map((option) => {
        const selected = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={selected}
            onClick={() => onChange(option.value)}
            className={cn(
              'rounded-lg border px-3 py-2.5 text-left transition-colors',
              selected ? 'border-accent-500 bg-accent-50/60 ring-1 ring-accent-500' : 'border-zinc-200 bg-white hover:border-zinc-300 hover:bg-zinc-50',
            )}
          >
            <span className={cn('block text-sm font-medium', selected ? 'text-accent-800' : 'text-zinc-900')}>{option.label}</span>
            {option.description && <span className="mt-0.5 block text-[12px] leading-snug text-zinc-500">{option.description}</span>}
          </button>
        );
      })}
    </div>
  );
}
