'use client';
// A dropdown menu: a trigger button and a panel of items. Closes on outside press, Escape, or
// after an item runs.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { cn } from './cn';

export interface MenuProps {
  /** Renders the trigger's content; the trigger itself is a button owned by the menu. */
  trigger: (open: boolean) => ReactNode;
  triggerClassName?: string;
  triggerLabel?: string;
  placement?: 'bottom-start' | 'bottom-end' | 'top-start';
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}

const placements = {
  'bottom-start': 'left-0 top-full mt-1.5',
  'bottom-end': 'right-0 top-full mt-1.5',
  'top-start': 'left-0 bottom-full mb-1.5',
};

export function Menu({ trigger, triggerClassName, triggerLabel, placement = 'bottom-start', panelClassName, children }: MenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button type="button" aria-haspopup="menu" aria-expanded={open} aria-label={triggerLabel} onClick={() => setOpen((o) => !o)} className={triggerClassName}>
        {trigger(open)}
      </button>
      {open && (
        <div
          role="menu"
          className={cn(
            'absolute z-30 min-w-56 animate-pop-in rounded-lg border border-zinc-200 bg-white p-1 shadow-lg',
            placements[placement],
            panelClassName,
          )}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}

export function MenuItem({
  onSelect,
  children,
  tone = 'default',
  disabled,
  selected,
}: {
  onSelect: () => void;
  children: ReactNode;
  tone?: 'default' | 'danger';
  disabled?: boolean;
  selected?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      disabled={disabled}
      aria-current={selected || undefined}
      onClick={onSelect}
      className={cn(
        'flex w-full items-center gap-2 rounded-md px-2.5 py-1.5 text-left text-sm transition-colors disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
        tone === 'danger' ? 'text-red-600 hover:bg-red-50' : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
      )}
    >
      {children}
    </button>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <div className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-zinc-400">{children}</div>;
}

export function MenuSeparator() {
  return <div className="my-1 h-px bg-zinc-100" role="separator" />;
}
