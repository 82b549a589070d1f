'use client';
// Long lists of a trace (requests, console messages) render ROW_STEP rows at a time: a trace holds
// thousands. "Show more" adds the next step; a changed filter starts from the first step again.
import { useState } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';

export const ROW_STEP = 500;

/** How many rows are shown; `more` adds a step, `reset` goes back to the first. */
export function useRowLimit() {
  const [shown, setShown] = useState(ROW_STEP);
  return { shown, more: () => setShown((n) => n + ROW_STEP), reset: () => setShown(ROW_STEP) };
}

/** "Showing N of M" and the button that shows the next step; nothing when every row is shown. */
export function ShowMore({ shown, total, onMore, className }: { shown: number; total: number; onMore: () => void; className?: string }) {
  if (total <= shown) return null;
  return (
    <div className={cn('flex items-center justify-between gap-3 text-[13px] text-zinc-500', className)}>
      <span>
        Showing {shown.toLocaleString('en')} of {total.toLocaleString('en')}
      </span>
      <Button size="sm" onClick={onMore}>
        Show {Math.min(ROW_STEP, total - shown).toLocaleString('en')} more
      </Button>
    </div>
  );
}
