'use client';
// A session's trace inside its detail panel on the Sessions page: where it stands, its figures
// (requests, failures and console errors from its first page of events: cheap, and enough for a
// glance), and a link to the viewer.
import Link from 'next/link';
import { useMemo } from 'react';
import { traceFigures } from '@/lib/client/trace-model';
import { traceHref, traceState, useActiveRouterId, useSessionTrace, useTraceEvents } from '@/lib/client/traces';
import { PAGE_SIZE } from '@/lib/traces/format';
import { formatBytes } from '../sessions/format';
import { ErrorAlert } from '../ui/alert';
import { Skeleton } from '../ui/skeleton';
import { TraceBadges } from './trace-status';

export function SessionTrace({ sessionId }: { sessionId: string }) {
  const found = useSessionTrace(sessionId);
  const activeRouterId = useActiveRouterId();
  const trace = found.data?.trace ?? null;
  const routerId = found.data?.routerId ?? null;
  const state = trace ? traceState(trace) : null;
  const firstPage = useTraceEvents(trace?.id ?? '', routerId, { ready: trace !== null && state !== 'writing', maxPages: 1 });
  const figures = useMemo(() => (firstPage.events.length > 0 ? traceFigures(firstPage.events) : null), [firstPage.events]);

  if (found.error) return <ErrorAlert error={found.error} />;
  if (found.data === null) return <p className="text-[13px] text-zinc-500">The trace was deleted.</p>;
  if (!trace) return <Skeleton className="h-20 w-full rounded-lg" />;

  const partial = trace.eventCount > PAGE_SIZE;
  return (
    <div className="space-y-3" data-testid="session-trace">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <TraceBadges trace={trace} />
        <Link
          href={traceHref(trace.id, routerId !== activeRouterId ? routerId : null)}
          className="text-[13px] font-medium text-accent-600 hover:text-accent-700"
        >
          Open trace
        </Link>
      </div>
      {state === 'writing' ? (
        <p className="text-[13px] text-zinc-500">
          The trace is being written ({trace.eventCount.toLocaleString('en')} events so far); it opens when the session ends.
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm">
          <Figure label="Events">{trace.eventCount.toLocaleString('en')}</Figure>
          <Figure label="Size">{formatBytes(trace.sizeBytes)}</Figure>
          {trace.droppedEvents > 0 && <Figure label="Dropped">{trace.droppedEvents.toLocaleString('en')}</Figure>}
          {figures ? (
            <>
              <Figure label={partial ? 'Requests (first 1,000 events)' : 'Requests'}>{figures.requests.toLocaleString('en')}</Figure>
              <Figure label="Failed requests" tone={figures.failedRequests > 0 ? 'danger' : undefined}>
                {figures.failedRequests.toLocaleString('en')}
              </Figure>
              <Figure label="Console errors" tone={figures.consoleErrors + figures.exceptions > 0 ? 'danger' : undefined}>
                {(figures.consoleErrors + figures.exceptions).toLocaleString('en')}
              </Figure>
            </>
          ) : (
            firstPage.query.isFetching && <Skeleton className="col-span-2 h-4 w-full" />
          )}
        </dl>
      )}
    </div>
  );
}

function Figure({ label, tone, children }: { label: string; tone?: 'danger'; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-zinc-500">{label}</dt>
      <dd className={tone === 'danger' ? 'font-medium text-red-700 tabular-nums' : 'text-zinc-900 tabular-nums'}>{children}</dd>
    </div>
  );
}

/** "Open trace" when the session has a trace (a recording's page links to it, as the trace links to the recording); nothing otherwise. */
export function SessionTraceLink({ sessionId }: { sessionId: string }) {
  const found = useSessionTrace(sessionId);
  const activeRouterId = useActiveRouterId();
  if (!found.data) return null;
  const { trace, routerId } = found.data;
  return (
    <Link href={traceHref(trace.id, routerId === activeRouterId ? null : routerId)} className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
      Open trace
    </Link>
  );
}
