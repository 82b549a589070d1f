'use client';
// Recordings: the video recordings of the last 30 days, newest first, filtered by session or by
// router (kept in the URL). Rows still recording or encoding update by themselves.
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useRecordings, type Recording } from '@/lib/client/recordings';
import { useRouters } from '@/lib/client/routers';
import { formatBytes, formatDuration } from '../sessions/format';
import { RouterFilter } from '../sessions/session-filters';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ChevronRightIcon, VideoIcon, XIcon } from '../ui/icons';
import { Field, Input } from '../ui/input';
import { CaptureListFooter, useCaptureListLimit } from '../captures/capture-list-footer';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { RecordingBadges, recordingState } from './recording-status';

export const recordingHref = (id: string) => `/recordings/${encodeURIComponent(id)}`;

/** A recording still being written has its figures only once its session ends. */
const counting = (r: Recording) => recordingState(r) === 'recording';
const pendingCell = (
  <span className="text-zinc-400" title="Counted when the session ends">
    —
  </span>
);

/** The recording: its pages' title, when, how many pages. */
const RECORDING_COLUMN: Column<Recording> = {
  key: 'recording',
  header: 'Recording',
  cell: (r) => (
    <Link href={recordingHref(r.id)} className="group flex min-w-0 flex-col" aria-label={`Recording of session ${r.sessionLogId}`}>
      <span
        className="max-w-[22rem] truncate font-medium text-zinc-900 group-hover:text-accent-700 group-hover:underline"
        title={r.title ?? undefined}
        data-testid="recording-name"
      >
        {r.title ?? (r.endedAt ? 'Untitled pages' : 'Recording…')}
      </span>
      <span className="text-[12px] text-zinc-500">
        <Time value={r.startedAt} relative />
        {r.pageCount > 0 && <> · {r.pageCount === 1 ? '1 page' : `${r.pageCount} pages`}</>}
      </span>
    </Link>
  ),
};

/** Its session, and its router's name where the list is not of one router (`routerName` null). */
const sessionColumn = (routerName: ((id: string) => string | undefined) | null): Column<Recording> => ({
  key: 'session',
  header: 'Session',
  className: 'hidden md:table-cell',
  cell: (r) => (
    <div className="min-w-0">
      <Link
        href={`/sessions?session=${encodeURIComponent(r.sessionLogId)}`}
        className="font-mono text-[13px] text-zinc-700 hover:text-accent-700 hover:underline"
        title="Open the session"
      >
        {r.sessionLogId.slice(0, 12)}
      </Link>
      {routerName?.(r.routerInstanceId) && <div className="truncate text-[12px] text-zinc-500">{routerName(r.routerInstanceId)}</div>}
    </div>
  ),
});

/** Status and figures (counted when its session ends), and the way in. */
const FIGURE_COLUMNS: Column<Recording>[] = [
  { key: 'status', header: 'Status', cell: (r) => <RecordingBadges recording={r} /> },
  { key: 'duration', header: 'Duration', className: 'text-right tabular-nums', cell: (r) => (counting(r) ? pendingCell : formatDuration(r.durationMs)) },
  {
    key: 'frames',
    header: 'Frames',
    className: 'hidden text-right tabular-nums lg:table-cell',
    cell: (r) =>
      counting(r) ? (
        pendingCell
      ) : (
        <div>
          <div>{r.frameCount.toLocaleString('en')}</div>
          {(r.droppedFrames > 0 || r.duplicatesSkipped > 0) && (
            <div className="text-[12px] text-zinc-500" title="Dropped: not captured while the recording fell behind. Duplicates: identical frames skipped.">
              {r.droppedFrames > 0 && <span className="text-amber-700">{r.droppedFrames.toLocaleString('en')} dropped</span>}
              {r.droppedFrames > 0 && r.duplicatesSkipped > 0 && ' · '}
              {r.duplicatesSkipped > 0 && (
                <>
                  {r.duplicatesSkipped.toLocaleString('en')} {r.duplicatesSkipped === 1 ? 'duplicate' : 'duplicates'}
                </>
              )}
            </div>
          )}
        </div>
      ),
  },
  {
    key: 'size',
    header: 'Size',
    className: 'hidden text-right tabular-nums sm:table-cell',
    cell: (r) =>
      counting(r) ? (
        pendingCell
      ) : (
        <div>
          <div>{formatBytes(r.sizeBytes)}</div>
          {r.mp4Status === 'ready' && <div className="text-[12px] text-zinc-500">MP4 {formatBytes(r.mp4SizeBytes)}</div>}
        </div>
      ),
  },
  {
    key: 'open',
    header: <span className="sr-only">Open</span>,
    className: 'w-10 text-right',
    cell: (r) => (
      <Link
        href={recordingHref(r.id)}
        aria-label={`Open recording ${r.id.slice(0, 12)}`}
        className="inline-flex rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
      >
        <ChevronRightIcon className="size-4" />
      </Link>
    ),
  },
];

export function RecordingsPage() {
  const { workspace } = useActiveWorkspace();
  const searchParams = useSearchParams();
  const sessionId = searchParams.get('session') ?? undefined;
  const routerId = searchParams.get('router') ?? undefined;
  const { limit, showMore, reset: resetLimit } = useCaptureListLimit();
  const recordings = useRecordings({ sessionId, routerId, limit });
  const routers = useRouters();
  const items = recordings.data?.replays;
  const filtered = Boolean(sessionId || routerId);
  const routerName = (id: string) => routers.data?.find((r) => r.id === id)?.name;

  const set = useSetSearchParams(resetLimit);

  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Recordings"
        description="Video recordings of sessions connected with session_record=true, kept for 30 days. Each becomes an MP4 when its session ends; until then its frames play here."
      />
      <Card aria-label="Recording list">
        <div className="flex flex-wrap items-end gap-3 border-b border-zinc-100 bg-zinc-50/50 px-5 py-3.5" role="group" aria-label="Filters">
          <SessionFilter key={sessionId ?? ''} value={sessionId ?? ''} onApply={(value) => set({ session: value })} />
          <RouterFilter value={routerId ?? ''} onChange={(value) => set({ router: value })} className="w-48" />
          {filtered && (
            <Button variant="ghost" size="sm" className="mb-0.5" onClick={() => set({ session: null, router: null })}>
              Clear filters
            </Button>
          )}
        </div>
        <DataTable<Recording>
          label="Recordings"
          query={recordings}
          rows={items}
          rowKey={(r) => r.id}
          skeletonRows={4}
          empty={<NoRecordings filtered={filtered} onClear={() => set({ session: null, router: null })} />}
          columns={[RECORDING_COLUMN, sessionColumn(routerId ? null : routerName), ...FIGURE_COLUMNS]}
        />
        <CaptureListFooter
          count={items?.length ?? 0}
          noun="recording"
          windowDays={30}
          limit={limit}
          onShowMore={showMore}
          loading={recordings.isFetching}
          testId="recordings-count"
        />
      </Card>
    </>
  );
}

/** A session ID typed or pasted in; applied on Enter or when the field is left. */
function SessionFilter({ value, onApply }: { value: string; onApply: (value: string | null) => void }) {
  const [text, setText] = useState(value);
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    if (trimmed !== value) onApply(trimmed || null);
  };
  return (
    <form onSubmit={apply} className="w-72">
      <Field label="Session" htmlFor="filter-session">
        <div className="relative">
          <Input
            id="filter-session"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => apply()}
            placeholder="Session ID"
            className="pr-8 font-mono text-[13px]"
            spellCheck={false}
            autoComplete="off"
            maxLength={64}
          />
          {text && (
            <button
              type="button"
              onClick={() => {
                setText('');
                onApply(null);
              }}
              aria-label="Clear session filter"
              className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
            >
              <XIcon className="size-3.5" />
            </button>
          )}
        </div>
      </Field>
    </form>
  );
}

function NoRecordings({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <EmptyState
      icon={<VideoIcon />}
      title={filtered ? 'No recordings match these filters' : 'No recordings yet'}
      description={
        filtered ? (
          'Recordings are listed for 30 days. Try another session or router.'
        ) : (
          <>
            Connect with <code className="font-mono text-[12px] text-zinc-700">session_record=true</code> to record a session: the Connect tab of a router has a
            &ldquo;Record this session&rdquo; option. Recording is billed per minute from the wallet.
          </>
        )
      }
      action={
        filtered && (
          <Button size="sm" onClick={onClear}>
            Clear filters
          </Button>
        )
      }
    />
  );
}

/** Sets or removes query parameters of this page (filters live in the URL); `onChange` first (the list starts again). */
function useSetSearchParams(onChange: () => void) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const navigate = useRouter();
  return (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams.toString());
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    onChange();
    const query = next.toString();
    navigate.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
}
