'use client';
// The frame of a capture's page (a recording or a trace): the way back to its list, "no such …"
// or the error when it cannot be read, a skeleton while it loads, and the header every capture
// has (when it started, its kind with its badges, where it stands, what can be done with it).
import Link from 'next/link';
import type { ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { ButtonLink } from '../ui/button';
import { EmptyState, ErrorState } from '../ui/empty-state';
import { ChevronLeftIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { Skeleton } from '../ui/skeleton';
import { Time } from '../ui/time';

export interface CaptureDetailProps<T> {
  query: { data: T | undefined; error: unknown; refetch: () => unknown };
  /** The list: its address and name ("Recordings"). */
  list: { href: string; label: string };
  /** What "no such …" shows: the kind's icon, noun ("recording") and why one may be missing. */
  missing: { icon: ReactNode; noun: string; why: string };
  /** The shape of the body while it loads (a video's frame, a table's). */
  skeletonClassName: string;
  children: (data: T) => ReactNode;
}

export function CaptureDetail<T>({ query, list, missing, skeletonClassName, children }: CaptureDetailProps<T>) {
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
          <EmptyState icon={missing.icon} title={`No such ${missing.noun}`} description={missing.why} action={<ButtonLink href={list.href} size="sm">All {list.label.toLowerCase()}</ButtonLink>} />
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
        <Skeleton className={skeletonClassName} />
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

/** The header of a capture: its start, its kind and badges, where it stands, its actions. */
export function CaptureHeader({ startedAt, kind, badges, description, actions }: { startedAt: string; kind: string; badges: ReactNode; description: ReactNode; actions: ReactNode }) {
  return (
    <PageHeader
      eyebrow={<Time value={startedAt} relative />}
      title={
        <span className="flex flex-wrap items-center gap-3">
          {kind}
          {badges}
        </span>
      }
      description={description}
      actions={actions}
    />
  );
}
