'use client';
// What a trace captured: its requests (waterfall), console output and navigations, on one time
// axis. Pages of events load one after another (the first shows at once). When the session was
// also recorded, its player sits above and shares the axis: a click on a request, a console line
// or a navigation moves the player there, and the player's position is a line on the timelines.
import Link from 'next/link';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { PlayerSeek } from '@/components/recordings/frame-player';
import { useRecording, useRecordings } from '@/lib/client/recordings';
import { buildRequests, isFailedRequest } from '@/lib/client/trace-model';
import { consoleEntries } from '@/lib/client/trace-console';
import { playerPositionAt, tabTimelines, traceAxis, traceNotes } from '@/lib/client/trace-timeline';
import { useTraceEvents, type TraceDetail } from '@/lib/client/traces';
import { RecordingPlayer } from '../recordings/recording-player';
import { recordingHref } from '../recordings/recordings-page';
import { Alert } from '../ui/alert';
import { Card, CardBody, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { ErrorState } from '../ui/empty-state';
import { Skeleton } from '../ui/skeleton';
import { Spinner } from '../ui/spinner';
import { ConsolePanel } from './console-panel';
import { NavigationTimeline } from './navigation-timeline';
import { NetworkPanel } from './network-panel';
import { usePlayhead, type Playhead } from './playhead';

type View = 'network' | 'console' | 'navigations';

export function TraceExplorer({ trace }: { trace: TraceDetail }) {
  const loaded = useTraceEvents(trace.id, trace.routerInstanceId, { ready: true });
  const { events } = loaded;
  const model = useMemo(() => {
    const requests = buildRequests(events);
    const startedAt = Date.parse(trace.startedAt);
    return {
      requests,
      console: consoleEntries(events),
      tabs: tabTimelines(events),
      notes: traceNotes(events),
      axis: traceAxis({ startedAt, endedAt: trace.endedAt ? Date.parse(trace.endedAt) : null }, events, requests),
    };
  }, [events, trace.startedAt, trace.endedAt]);
  const linked = useLinkedRecording(trace.sessionLogId);

  if (loaded.query.error && loaded.events.length === 0) return <EventsFailed loaded={loaded} />;
  if (loaded.query.isPending) return <EventsLoading />;
  return (
    <div className="space-y-4">
      {loaded.capped && (
        <Alert tone="warning" title="Part of the trace">
          Showing the first {events.length.toLocaleString('en')} of {loaded.eventCount.toLocaleString('en')} events; download the whole trace (JSON, gzip or
          HAR) to see the rest.
        </Alert>
      )}
      {loaded.loadingMore && (
        <p className="flex items-center gap-2 text-[13px] text-zinc-500" role="status">
          <Spinner className="size-3.5" />
          Loading events… {events.length.toLocaleString('en')} of {Math.min(loaded.eventCount, loaded.totalPages * 1_000).toLocaleString('en')}
        </p>
      )}
      {model.notes.map((note) => (
        <Alert key={note.seq} tone="warning" title={`Not captured${note.tab ? ` on tab ${tabNumber(model.tabs, note.tab)}` : ''}: ${note.missing.join(', ')}`}>
          <span data-testid="trace-note">{note.message}</span>
        </Alert>
      ))}
      {linked.recording && (
        <Card aria-label="Recording">
          <CardHeader
            title="Recording"
            description="The session was also recorded. Click a request, a console message or a navigation to see that moment; the red line marks the player's position."
            actions={
              <Link href={recordingHref(linked.recording.id)} className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
                Open recording
              </Link>
            }
          />
          <CardBody>
            <RecordingPlayer recording={linked.recording} seek={linked.seek} onPositionChange={linked.onPositionChange} className="mx-auto max-w-3xl" />
          </CardBody>
        </Card>
      )}
      <TraceViews model={model} playhead={linked.recording ? linked.playhead : null} onPick={linked.onPick} />
    </div>
  );
}

/** The session's recording, when it was recorded too: its player's position, and a pick on the timelines that moves it. */
function useLinkedRecording(sessionId: string) {
  const recordings = useRecordings({ sessionId });
  const recordingId = recordings.data?.replays[0]?.id ?? null;
  const recording = useRecording(recordingId).data;
  const playhead = usePlayhead();
  const [seek, setSeek] = useState<PlayerSeek | null>(null);
  const recordingStart = recording ? Date.parse(recording.startedAt) : null;
  const onPick = useMemo(
    () => (recordingStart === null ? undefined : (t: number, tab: string | null) => setSeek({ ms: playerPositionAt(t, recordingStart), tab, key: Date.now() })),
    [recordingStart],
  );
  const onPositionChange = useCallback((ms: number) => playhead.set(recordingStart === null ? null : recordingStart + ms), [playhead, recordingStart]);
  return { recording, playhead, seek, onPick, onPositionChange };
}

type TraceEvents = ReturnType<typeof useTraceEvents>;

/** The first page could not be read: still being written (the session runs), or an error to retry. */
function EventsFailed({ loaded }: { loaded: TraceEvents }) {
  if (loaded.inProgress) {
    return (
      <Alert tone="info" title="The session is still running" action={<Spinner className="size-4 text-accent-600" />}>
        The trace is being written; it opens when the session ends. This page checks again every 10 seconds.
      </Alert>
    );
  }
  return <ErrorState className="rounded-xl border border-zinc-200 bg-white" error={loaded.query.error} onRetry={() => void loaded.query.refetch()} />;
}

function EventsLoading() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading events">
      <Skeleton className="h-9 w-full max-w-xl" />
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  );
}

interface TraceModel {
  requests: ReturnType<typeof buildRequests>;
  console: ReturnType<typeof consoleEntries>;
  tabs: ReturnType<typeof tabTimelines>;
  axis: ReturnType<typeof traceAxis>;
}

/** Network, Console and Navigations as tabs, each with its count (and its failures). */
function TraceViews({ model, playhead, onPick }: { model: TraceModel; playhead: Playhead | null; onPick?: (t: number, tab: string | null) => void }) {
  const [view, setView] = useState<View>('network');
  const failed = model.requests.filter(isFailedRequest).length;
  const errors = model.console.filter((e) => e.group === 'error').length;
  const navigations = model.tabs.reduce((n, t) => n + t.navigations.length, 0);
  return (
    <Card aria-label="Trace events">
      <div role="tablist" aria-label="Views" className="flex gap-6 border-b border-zinc-200 px-5">
        <ViewTab
          view="network"
          current={view}
          onSelect={setView}
          label="Network"
          count={model.requests.length}
          alert={failed > 0 ? `${failed} failed` : undefined}
        />
        <ViewTab
          view="console"
          current={view}
          onSelect={setView}
          label="Console"
          count={model.console.length}
          alert={errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : undefined}
        />
        <ViewTab view="navigations" current={view} onSelect={setView} label="Navigations" count={navigations} />
      </div>
      <div role="tabpanel" aria-label={view === 'network' ? 'Network' : view === 'console' ? 'Console' : 'Navigations'} className="p-4">
        {view === 'network' && <NetworkPanel requests={model.requests} axis={model.axis} playhead={playhead} onPick={onPick} />}
        {view === 'console' && <ConsolePanel entries={model.console} axis={model.axis} onPick={onPick} />}
        {view === 'navigations' && <NavigationTimeline tabs={model.tabs} axis={model.axis} playhead={playhead} onPick={onPick} />}
      </div>
    </Card>
  );
}

const tabNumber = (tabs: { tab: string }[], id: string) => {
  const i = tabs.findIndex((t) => t.tab === id);
  return i >= 0 ? String(i + 1) : id.slice(0, 8);
};

function ViewTab({
  view,
  current,
  onSelect,
  label,
  count,
  alert,
}: {
  view: View;
  current: View;
  onSelect: (view: View) => void;
  label: ReactNode;
  count: number;
  alert?: string;
}) {
  const selected = view === current;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      onClick={() => onSelect(view)}
      className={cn(
        '-mb-px flex items-center gap-2 border-b-2 px-0.5 pt-3 pb-2.5 text-sm font-medium whitespace-nowrap transition-colors',
        selected ? 'border-accent-600 text-zinc-900' : 'border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800',
      )}
    >
      {label}
      <span className={cn('rounded-full px-1.5 py-px text-[11px] tabular-nums', selected ? 'bg-accent-50 text-accent-700' : 'bg-zinc-100 text-zinc-500')}>
        {count.toLocaleString('en')}
      </span>
      {alert && <span className="rounded-full bg-red-50 px-1.5 py-px text-[11px] text-red-700 ring-1 ring-red-200 ring-inset">{alert}</span>}
    </button>
  );
}
