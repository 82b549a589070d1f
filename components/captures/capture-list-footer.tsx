'use client';
// Below a list of captures (recordings, traces): how many are shown and over what window, and a
// button that shows more when the first page was full.
import { useState } from 'react';
import { Button } from '../ui/button';

/** The first page of a capture list, and the most it shows. */
export const FIRST_PAGE = 50;
export const MOST = 200;

/** The list's limit: the first page, then the most after "Show up to …". */
export function useCaptureListLimit() {
  const [limit, setLimit] = useState(FIRST_PAGE);
  return { limit, showMore: () => setLimit(MOST), reset: () => setLimit(FIRST_PAGE) };
}

export function CaptureListFooter({
  count,
  noun,
  windowDays,
  limit,
  onShowMore,
  loading,
  testId,
}: {
  count: number;
  noun: string;
  windowDays: number;
  limit: number;
  onShowMore: () => void;
  loading: boolean;
  testId: string;
}) {
  if (count === 0) return null;
  return (
    <div className="flex items-center justify-between gap-4 border-t border-zinc-100 px-5 py-3 text-[13px] text-zinc-500">
      <span data-testid={testId}>
        {count.toLocaleString('en')} {noun}
        {count === 1 ? '' : 's'}
        {count >= limit ? ', newest first' : ` in the last ${windowDays} days`}
      </span>
      {count >= limit && limit < MOST && (
        <Button size="sm" onClick={onShowMore} loading={loading}>
          Show up to {MOST}
        </Button>
      )}
    </div>
  );
}
