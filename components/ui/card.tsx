// Cards group one subject on a page: a header (title, description, actions), a body, and an
// optional footer. `tone="danger"` marks a danger zone.
import type { ReactNode } from 'react';
import { cn } from './cn';

export function Card({
  className,
  tone = 'default',
  children,
  ...props
}: { className?: string; tone?: 'default' | 'danger'; children: ReactNode } & React.HTMLAttributes<HTMLElement>) {
  return (
    <section
      className={cn('overflow-hidden rounded-xl border bg-white shadow-xs', tone === 'danger' ? 'border-red-200' : 'border-zinc-200', className)}
      {...props}
    >
      {children}
    </section>
  );
}

export function CardHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <header className={cn('flex flex-wrap items-start justify-between gap-x-6 gap-y-3 border-b border-zinc-100 px-5 py-4', className)}>
      <div className="min-w-0 space-y-0.5">
        <h2 className="text-[15px] font-semibold text-zinc-900">{title}</h2>
        {description && <p className="text-[13px] text-zinc-500">{description}</p>}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </header>
  );
}

export function CardBody({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('px-5 py-4', className)}>{children}</div>;
}

export function CardFooter({ className, children }: { className?: string; children: ReactNode }) {
  return <footer className={cn('flex items-center justify-between gap-4 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3', className)}>{children}</footer>;
}

/** A label/value list for facts about one object (profile, workspace). */
export function DescriptionList({ items, className }: { items: Array<{ label: ReactNode; value: ReactNode }>; className?: string }) {
  return (
    <dl className={cn('divide-y divide-zinc-100', className)}>
      {items.map((item, i) => (
        <div key={i} className="grid min-h-12 grid-cols-3 items-center gap-4 px-5 py-2.5 text-sm">
          <dt className="text-zinc-500">{item.label}</dt>
          <dd className="col-span-2 min-w-0 text-zinc-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
