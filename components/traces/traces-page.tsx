'use client';
// Traces: the traces of one router (traces are router-scoped) kept for 60 days, newest first. The
// router is the dashboard's active one unless the URL names another (`?router=`). Traces still
// being written update by themselves.
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useActiveWorkspace } from '@/lib/client/me';
import { useRouters } from '@/lib/client/routers';
import { traceHref, traceState, useActiveRouterId, useTraces, type Trace } from '@/lib/client/traces';
import { formatBytes, formatDuration } from '../sessions/format';
import { ButtonLink } from '../ui/button';
import { Card } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ChevronRightIcon, SearchCodeIcon } from '../ui/icons';
import { Field, Select } from '../ui/input';
import { CaptureListFooter, useCaptureListLimit } from '../captures/capture-list-footer';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { DeleteTrace } from './trace-actions';
import { TraceBadges, truncatedReason } from './trace-status';

/** A trace being written has its duration once its session ends; its other figures grow meanwhile. */
const counting = (t: Trace) => traceState(t) === 'writing';
const pendingCell = (
  <span className="text-zinc-400" title="Counted when the session ends">
    —
  </span>
);
const soFar = (t: Trace, text: string) =>
  counting(t) ? (
    <span className="text-zinc-500" title="So far: updated every few seconds while the session runs">
      {text} <span className="text-[12px] text-zinc-400">so far</span>
    </span>
  ) : (
    text
  );

export function TracesPage() {
  const { workspace, canManage } = useActiveWorkspace();
  const { routers, routerId, chooseRouter, linkRouter, traces, items, limit, showMore } = useTraceList();
  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Traces"
        description="Network requests, console output and navigations of sessions connected with observability=true, kept for 60 days. A trace opens when its session ends."
      />
      <Card aria-label="Trace list">
        <RouterFilter routers={routers.data} routerId={routerId} onChoose={chooseRouter} />
        {routers.data?.length === 0 ? (
          <EmptyState
            icon={<SearchCodeIcon />}
            title="No routers yet"
            description="Traces belong to a router's sessions. Create a router first."
            action={
              <ButtonLink href="/routers" size="sm">
                Routers
              </ButtonLink>
            }
          />
        ) : (
          <DataTable<Trace>
            label="Traces"
            query={traces}
            rows={items}
            rowKey={(t) => t.id}
            skeletonRows={4}
            empty={<NoTraces />}
            columns={traceColumns(linkRouter, canManage)}
          />
        )}
        <CaptureListFooter
          count={items?.length ?? 0}
          noun="trace"
          windowDays={60}
          limit={limit}
          onShowMore={showMore}
          loading={traces.isFetching}
          testId="traces-count"
        />
      </Card>
    </>
  );
}

/** Which router's traces are listed (the URL's `?router=`, else the active one) and how many of them. */
function useTraceList() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const navigate = useRouter();
  const activeRouterId = useActiveRouterId();
  const routers = useRouters();
  const routerId = searchParams.get('router') || activeRouterId;
  const { limit, showMore, reset: resetLimit } = useCaptureListLimit();
  const traces = useTraces({ routerId, limit });
  const items = traces.data?.inspections;

  const chooseRouter = (id: string) => {
    resetLimit();
    navigate.replace(id && id !== activeRouterId ? `${pathname}?router=${encodeURIComponent(id)}` : pathname, { scroll: false });
  };
  // Links keep the router only when it is not the one the viewer would pick by itself.
  const linkRouter = routerId !== activeRouterId ? routerId : null;
  return { routers, routerId, chooseRouter, linkRouter, traces, items, limit, showMore };
}

/** The table's columns; links keep `linkRouter` (null: the viewer's own). */
function traceColumns(linkRouter: string | null, canManage: boolean): Column<Trace>[] {
  return [
    { key: 'trace', header: 'Started', cell: (t) => <StartedLink trace={t} linkRouter={linkRouter} /> },
    { key: 'session', header: 'Session', className: 'hidden md:table-cell', cell: (t) => <SessionLink trace={t} /> },
    { key: 'status', header: 'Status', cell: (t) => <TraceBadges trace={t} /> },
    { key: 'duration', header: 'Duration', className: 'text-right tabular-nums', cell: (t) => (counting(t) ? pendingCell : formatDuration(t.durationMs)) },
    { key: 'events', header: 'Events', className: 'text-right tabular-nums', cell: (t) => soFar(t, t.eventCount.toLocaleString('en')) },
    { key: 'size', header: 'Size', className: 'hidden text-right tabular-nums sm:table-cell', cell: (t) => soFar(t, formatBytes(t.sizeBytes)) },
    {
      key: 'dropped',
      header: 'Dropped',
      className: 'hidden text-right tabular-nums lg:table-cell',
      cell: (t) => (counting(t) ? pendingCell : <Dropped trace={t} />),
    },
    {
      key: 'open',
      header: <span className="sr-only">Actions</span>,
      className: 'w-24 text-right',
      cell: (t) => <TraceRowActions trace={t} linkRouter={linkRouter} canManage={canManage} />,
    },
  ];
}

/** When the trace started, and its id: opens the trace. */
function StartedLink({ trace: t, linkRouter }: { trace: Trace; linkRouter: string | null }) {
  return (
    <Link href={traceHref(t.id, linkRouter)} className="group flex flex-col" aria-label={`Trace of session ${t.sessionLogId}`}>
      <span className="font-medium text-zinc-900 group-hover:text-accent-700 group-hover:underline">
        <Time value={t.startedAt} relative />
      </span>
      <code className="font-mono text-[12px] text-zinc-500">{t.id.slice(0, 12)}</code>
    </Link>
  );
}

/** The traced session's id: opens the session. */
function SessionLink({ trace: t }: { trace: Trace }) {
  return (
    <Link
      href={`/sessions?session=${encodeURIComponent(t.sessionLogId)}`}
      className="font-mono text-[13px] text-zinc-700 hover:text-accent-700 hover:underline"
      title="Open the session"
    >
      {t.sessionLogId.slice(0, 12)}
    </Link>
  );
}

/** Events not captured, and why the trace stopped early if it did. */
function Dropped({ trace: t }: { trace: Trace }) {
  return (
    <span
      className={t.droppedEvents > 0 || t.truncated ? 'text-amber-700' : 'text-zinc-400'}
      title={t.truncated ? truncatedReason(t.truncated) : 'Events not captured'}
    >
      {t.droppedEvents.toLocaleString('en')}
      {t.truncated && <span className="ml-1 text-[12px]">({t.truncated === 'event-cap' ? 'event limit' : 'wallet'})</span>}
    </span>
  );
}

/** Delete (for those who may) and open. */
function TraceRowActions({ trace: t, linkRouter, canManage }: { trace: Trace; linkRouter: string | null; canManage: boolean }) {
  return (
    <span className="inline-flex items-center gap-1">
      {canManage && <DeleteTrace trace={t} compact />}
      <Link
        href={traceHref(t.id, linkRouter)}
        aria-label={`Open trace ${t.id.slice(0, 12)}`}
        className="inline-flex rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
      >
        <ChevronRightIcon className="size-4" />
      </Link>
    </span>
  );
}

/** No trace yet: how to make one. */
function NoTraces() {
  return (
    <EmptyState
      icon={<SearchCodeIcon />}
      title="No traces yet"
      description={
        <>
          Connect with <code className="font-mono text-[12px] text-zinc-700">observability=true</code> to trace a session: the Connect tab of a router has a
          &ldquo;Trace this session&rdquo; option. Traces are billed per 1,000 events from the wallet.
        </>
      }
    />
  );
}

/** Which router's traces are listed. */
function RouterFilter({
  routers,
  routerId,
  onChoose,
}: {
  routers: { id: string; name: string }[] | undefined;
  routerId: string | null;
  onChoose: (id: string) => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-zinc-100 bg-zinc-50/50 px-5 py-3.5" role="group" aria-label="Filters">
      <Field label="Router" htmlFor="traces-router" className="w-56">
        <Select id="traces-router" value={routerId ?? ''} onChange={(e) => onChoose(e.target.value)}>
          {routers?.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </Select>
      </Field>
      <p className="mb-2 text-[13px] text-zinc-500">Traces belong to the router their session went through.</p>
    </div>
  );
}
