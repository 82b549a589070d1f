'use client';
// One trace: where it stands, its figures and files, then what it captured (trace-explorer.tsx).
// A trace still being written says so and is asked for again until its session ends.
import { useRouter } from 'next/navigation';
import { useActiveWorkspace } from '@/lib/client/me';
import { traceState, useActiveRouterId, useTrace, type TraceDetail } from '@/lib/client/traces';
import { CaptureHeader } from '../captures/capture-detail';
import { DetailFrame } from '../ui/detail-frame';
import { formatBytes, formatDuration } from '../sessions/format';
import { Alert } from '../ui/alert';
import { Card, DescriptionList } from '../ui/card';
import { SessionIdValue } from '../captures/capture-ids';
import { CopyableId } from '../ui/copyable-id';
import { SearchCodeIcon } from '../ui/icons';
import { Spinner } from '../ui/spinner';
import { formatDateTime } from '../ui/time';
import { DeleteTrace, TraceDownloads } from './trace-actions';
import { TraceExplorer } from './trace-explorer';
import { TraceBadges, stateExplanation, truncatedReason } from './trace-status';

export function TraceViewer({ id, routerParam }: { id: string; routerParam: string | null }) {
  const activeRouterId = useActiveRouterId();
  const routerId = routerParam ?? activeRouterId;
  const trace = useTrace(id, routerId);
  const { canManage } = useActiveWorkspace();
  const navigate = useRouter();
  const listHref = routerParam ? `/traces?router=${encodeURIComponent(routerParam)}` : '/traces';
  return (
    <DetailFrame
      query={trace}
      list={{ href: listHref, label: 'Traces' }}
      missing={{
        icon: <SearchCodeIcon />,
        title: 'No such trace',
        why: 'It was deleted, it is older than 60 days, or it belongs to another router or workspace.',
      }}
      skeletons={['h-40 w-full rounded-xl']}
    >
      {(t) => {
        const state = traceState(t);
        return (
          <>
            <CaptureHeader
              startedAt={t.startedAt}
              kind="Trace"
              badges={<TraceBadges trace={t} orphaned={t.orphaned} />}
              description={stateExplanation(state)}
              actions={
                <div className="flex flex-wrap items-start gap-2">
                  {state !== 'writing' && <TraceDownloads trace={t} />}
                  {canManage && <DeleteTrace trace={t} onDeleted={() => navigate.push(listHref)} />}
                </div>
              }
            />
            <div className="space-y-6">
              {t.truncated && (
                <Alert tone="warning" title="Truncated">
                  {truncatedReason(t.truncated)}
                </Alert>
              )}
              <Figures trace={t} />
              {state === 'writing' ? (
                <Alert tone="info" title="The session is still running" action={<Spinner className="size-4 text-accent-600" />}>
                  The trace is being written; it opens when the session ends. This page checks again every few seconds.
                </Alert>
              ) : (
                <TraceExplorer trace={t} />
              )}
            </div>
          </>
        );
      }}
    </DetailFrame>
  );
}

function Figures({ trace: t }: { trace: TraceDetail }) {
  const pending = traceState(t) === 'writing';
  const later = <span className="text-zinc-400">Counted when the session ends</span>;
  return (
    <Card aria-label="Trace figures">
      <div className="grid md:grid-cols-2">
        <DescriptionList
          items={[
            { label: 'Session', value: <SessionIdValue sessionId={t.sessionLogId} /> },
            { label: 'Started', value: formatDateTime(t.startedAt) },
            { label: 'Ended', value: t.endedAt ? formatDateTime(t.endedAt) : <span className="text-zinc-400">{pending ? 'Still running' : '—'}</span> },
            { label: 'Duration', value: pending ? later : <span className="tabular-nums">{formatDuration(t.durationMs)}</span> },
          ]}
        />
        <DescriptionList
          className="border-t border-zinc-100 md:border-t-0 md:border-l"
          items={[
            {
              label: 'Events',
              value: (
                <span className="tabular-nums">
                  <span data-testid="trace-event-count">{t.eventCount.toLocaleString('en')}</span>
                  {pending && <span className="ml-2 text-[13px] text-zinc-400">so far</span>}
                </span>
              ),
            },
            {
              label: 'Size',
              value: (
                <span className="tabular-nums">
                  {formatBytes(t.sizeBytes)}
                  {pending && <span className="ml-2 text-[13px] text-zinc-400">so far</span>}
                </span>
              ),
            },
            {
              label: 'Dropped events',
              value: pending ? (
                later
              ) : (
                <span className={t.droppedEvents > 0 ? 'text-amber-700 tabular-nums' : 'tabular-nums'}>
                  {t.droppedEvents.toLocaleString('en')}
                  {t.droppedEvents > 0 && <span className="ml-2 text-[13px] text-zinc-500">not captured</span>}
                </span>
              ),
            },
            { label: 'Trace ID', value: <CopyableId id={t.id} label="Copy trace ID" /> },
          ]}
        />
      </div>
    </Card>
  );
}
