'use client';
// The frame of a page about one thing (a recording, a trace, a profile): the way back to its list,
// "no such …" or the error when it cannot be read, a skeleton while it loads, then the page.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { ButtonLink } from './button';
import { EmptyState, ErrorState } from './empty-state';
import { ChevronLeftIcon } from './icons';
import { Skeleton } from './skeleton';

export interface DetailFrameProps<T> {
  query: { data: T | undefined; error: unknown; refetch: () => unknown };
  /** The list: its address and name ("Recordings"). */
  list: { href: string; label: string };
  /** What a 404 shows: the kind's icon, a title ("No such recording") and why one may be missing. */
  missing: { icon: ReactNode; title: string; why: string };
  /** The shapes of the body while it loads (a video's frame, a table's). */
  skeletons: string[];
  children: (data: T) => ReactNode;
}

export function DetailFrame<T>({ query, list, missing, skeletons, children }: DetailFrameProps<T>) {
  const back = (
    <Link href={list.href} className="mb-3 inline-flex items-center gap-1 text-[13px] font-medium text-zinc-500 hover:text-zinc-800">
      <ChevronLeftIcon className="size-4" />
      {list.label}
    </Link>
  );
  if (query.error && !query.data) {
    return (
      <>
        {back}
        {isApiError(query.error, 'not_found') ? (
          <EmptyState
            icon={missing.icon}
            title={missing.title}
            description={missing.why}
            action={
              <ButtonLink href={list.href} size="sm">
                All {list.label.toLowerCase()}
              </ButtonLink>
            }
          />
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )}
      </>
    );
  }
  if (!query.data) {
    return (
      <div className="space-y-6" aria-busy="true">
        {back}
        <Skeleton className="h-10 w-64" />
        {skeletons.map((className) => (
          <Skeleton key={className} className={className} />
        ))}
      </div>
    );
  }
  return (
    <>
      {back}
      {children(query.data)}
    </>
  );
}
