'use client';
// The network waterfall: one row per request (each redirect hop its own), bars on the trace's time
// axis, filters by type, failure and URL text (request-filters.tsx), and the clicked request's
// details beside the list. At most ROW_STEP rows render at a time (row-limit.tsx): a trace has
// thousands.
import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { formatBytes } from '../sessions/format';
import { filterRequests, isFailedRequest, splitUrl, typeCategory, type NetworkRequest } from '@/lib/client/trace-model';
import { axisFraction, axisTicks, formatMs, traceAxis, type TimeAxis } from '@/lib/client/trace-timeline';
import { cn } from '../ui/cn';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon } from '../ui/icons';
import { PlayheadLine, type Playhead } from './playhead';
import { RequestDetail } from './request-detail';
import { RequestFilters, type RequestFilterValues } from './request-filters';
import { ShowMore, useRowLimit } from './row-limit';

/**
 * Name, status, type, size, time, waterfall: the waterfall's share is fixed so the playhead can
 * overlay it (WATERFALL). Below `md` (a phone) only name, status, time and a narrower waterfall,
 * so the names stay readable.
 */
const COLUMNS = 'grid grid-cols-[minmax(0,1fr)_44px_52px_18%] md:grid-cols-[minmax(0,1fr)_64px_72px_72px_64px_30%]';
/** Beside the details panel: name, status, time, waterfall. */
const COMPACT_COLUMNS = 'grid grid-cols-[minmax(0,1fr)_44px_52px_18%] md:grid-cols-[minmax(0,1fr)_64px_64px_30%]';
/** The waterfall column's share, for the playhead's overlay. */
const WATERFALL = 'w-[18%] md:w-[30%]';
/** Type and size: from `md` up. */
const WIDE_ONLY = 'hidden md:block';

const barColours: Record<ReturnType<typeof typeCategory>, string> = {
  document: 'bg-sky-500',
  fetch: 'bg-violet-500',
  script: 'bg-amber-500',
  stylesheet: 'bg-emerald-500',
  image: 'bg-teal-500',
  other: 'bg-zinc-400',
};

export function NetworkPanel({
  requests,
  axis,
  playhead,
  onPick,
}: {
  requests: NetworkRequest[];
  axis: TimeAxis;
  playhead: Playhead | null;
  onPick?: (t: number, tab: string | null) => void;
}) {
  const [filters, setFilters] = useState<RequestFilterValues>({ type: 'all', failedOnly: false, search: '', fit: false });
  const { type, failedOnly, fit } = filters;
  const deferredSearch = useDeferredValue(filters.search);
  const rows = useRowLimit();
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const filtered = useMemo(() => filterRequests(requests, { type, failedOnly, search: deferredSearch }), [requests, type, failedOnly, deferredSearch]);
  // The session's axis (shared with the player and the navigations), or one fitted to the requests listed.
  const fitted = useMemo(() => (fit ? padded(traceAxis({ startedAt: null, endedAt: null }, [], filtered)) : axis), [fit, filtered, axis]);
  const selected = selectedKey ? (requests.find((r) => r.key === selectedKey) ?? null) : null;
  const compact = selected !== null;
  const failedCount = useMemo(() => requests.filter(isFailedRequest).length, [requests]);

  // Stable, so the memoised rows do not render again when the page around them does.
  const pick = useCallback(
    (r: NetworkRequest) => {
      setSelectedKey(r.key);
      onPick?.(r.start, r.tab);
    },
    [onPick],
  );

  return (
    <div className="space-y-3">
      <RequestFilters
        filters={filters}
        onChange={(change) => {
          setFilters((current) => ({ ...current, ...change }));
          // Zooming changes no row; a filter starts the list from its first step again.
          if (change.fit === undefined) rows.reset();
        }}
        failedCount={failedCount}
        listed={filtered.length}
        total={requests.length}
      />

      <div className={cn('grid gap-4', selected && 'xl:grid-cols-[minmax(0,1fr)_460px]')}>
        <div
          role="table"
          aria-label="Requests"
          aria-rowcount={filtered.length + 1}
          className="min-w-0 self-start overflow-hidden rounded-lg border border-zinc-200 text-[13px]"
        >
          <RequestHeader compact={compact} axis={fitted} />
          {filtered.length === 0 ? (
            <EmptyState
              icon={<ActivityIcon />}
              title={requests.length === 0 ? 'No requests in this trace' : 'No request matches these filters'}
              className="py-10"
            />
          ) : (
            <div role="rowgroup" className="relative divide-y divide-zinc-100">
              <div className={cn('pointer-events-none absolute inset-y-0 right-0 px-2', WATERFALL)} aria-hidden="true">
                <div className="relative h-full">
                  <PlayheadLine playhead={playhead} axis={fitted} />
                </div>
              </div>
              {filtered.slice(0, rows.shown).map((r) => (
                <RequestRow key={r.key} request={r} axis={fitted} sessionStart={axis.start} selected={r.key === selectedKey} compact={compact} onPick={pick} />
              ))}
            </div>
          )}
          <ShowMore shown={rows.shown} total={filtered.length} onMore={rows.more} className="border-t border-zinc-100 bg-zinc-50/60 px-3 py-2" />
        </div>
        {selected && <RequestDetail request={selected} axis={axis} onClose={() => setSelectedKey(null)} />}
      </div>
    </div>
  );
}

/** The columns' names, the waterfall's ruler above its column. */
function RequestHeader({ compact, axis }: { compact: boolean; axis: TimeAxis }) {
  return (
    <div role="rowgroup">
      <div role="row" className={cn(compact ? COMPACT_COLUMNS : COLUMNS, 'border-b border-zinc-200 bg-zinc-50/80 text-[12px] font-medium text-zinc-500')}>
        <span role="columnheader" className="px-3 py-2">
          Name
        </span>
        <span role="columnheader" className="px-2 py-2">
          Status
        </span>
        {!compact && (
          <span role="columnheader" className={cn(WIDE_ONLY, 'px-2 py-2')}>
            Type
          </span>
        )}
        {!compact && (
          <span role="columnheader" className={cn(WIDE_ONLY, 'px-2 py-2 text-right')}>
            Size
          </span>
        )}
        <span role="columnheader" className="px-2 py-2 text-right">
          Time
        </span>
        <span role="columnheader" className="px-2 py-2">
          <Ruler axis={axis} />
        </span>
      </div>
    </div>
  );
}

/** A little room on either side, so the first and last bars do not touch the edges. */
function padded(axis: TimeAxis): TimeAxis {
  const room = Math.max(1, (axis.end - axis.start) * 0.03);
  return { start: axis.start - room, end: axis.end + room };
}

/** The time marks above the waterfall column. */
function Ruler({ axis }: { axis: TimeAxis }) {
  const ticks = axisTicks(axis, 4);
  const span = axis.end - axis.start;
  return (
    <span className="relative block h-4" aria-label={`0 to ${formatMs(span)}`}>
      {ticks.map((at, i) => (
        <span
          key={at}
          // The first label starts at its mark and one near the end finishes at it, so neither leaves
          // the column; on a phone's narrow column only the last mark is labelled.
          className={cn(
            'absolute top-0 font-normal whitespace-nowrap text-zinc-400 tabular-nums',
            at === 0 ? '' : at / span > 0.85 ? '-translate-x-full' : '-translate-x-1/2',
            i < ticks.length - 1 && 'hidden md:inline',
          )}
          style={{ left: `${(at / span) * 100}%` }}
        >
          {at === 0 ? '0' : formatMs(at)}
        </span>
      ))}
    </span>
  );
}

/** `axis` places the bar; `sessionStart` is what "starts at" counts from. */
const RequestRow = memo(function RequestRow({
  request: r,
  axis,
  sessionStart,
  selected,
  compact,
  onPick,
}: {
  request: NetworkRequest;
  axis: TimeAxis;
  sessionStart: number;
  selected: boolean;
  compact: boolean;
  onPick: (r: NetworkRequest) => void;
}) {
  const { origin, path } = splitUrl(r.url);
  const failed = isFailedRequest(r);
  const left = axisFraction(axis, r.start);
  const right = r.end === null ? 1 : axisFraction(axis, r.end);
  const duration = r.end === null ? null : r.end - r.start;
  return (
    <div
      role="row"
      tabIndex={0}
      aria-selected={selected}
      data-request-key={r.key}
      onClick={() => onPick(r)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onPick(r);
        }
      }}
      className={cn(
        compact ? COMPACT_COLUMNS : COLUMNS,
        'cursor-pointer items-center outline-none hover:bg-zinc-50 focus-visible:bg-accent-50/60',
        selected && 'bg-accent-50 hover:bg-accent-50',
        failed && !selected && 'bg-red-50/40',
      )}
    >
      <span role="cell" className="min-w-0 px-3 py-1.5" title={r.url}>
        <span className="flex min-w-0 items-baseline gap-1.5">
          <span className="shrink-0 font-mono text-[11px] text-zinc-400">{r.method}</span>
          <span className={cn('truncate font-medium', failed ? 'text-red-700' : 'text-zinc-900')}>{path || '/'}</span>
        </span>
        <span className="flex min-w-0 gap-1.5 text-[12px]">
          <span className="min-w-0 shrink truncate text-zinc-400">{origin}</span>
          {r.error && <span className="max-w-full min-w-0 shrink-0 truncate text-red-600">{r.error.canceled ? 'canceled' : r.error.text}</span>}
        </span>
      </span>
      <span
        role="cell"
        className={cn('px-2 tabular-nums', failed ? 'font-medium text-red-600' : 'text-zinc-700')}
        title={r.error ? r.error.text : r.statusText}
      >
        {r.status ?? (r.error ? '(failed)' : r.end === null ? '(pending)' : '—')}
      </span>
      {!compact && (
        <span role="cell" className={cn(WIDE_ONLY, 'truncate px-2 text-zinc-500')}>
          {r.type.toLowerCase()}
        </span>
      )}
      {!compact && (
        <span role="cell" className={cn(WIDE_ONLY, 'px-2 text-right text-zinc-600 tabular-nums')}>
          {r.fromCache ? <span className="text-zinc-400">(cache)</span> : r.transferBytes !== null ? formatBytes(r.transferBytes) : '—'}
        </span>
      )}
      <span role="cell" className="px-2 text-right text-zinc-600 tabular-nums">
        {duration === null ? <span className="text-zinc-400">—</span> : formatMs(duration)}
      </span>
      <span role="cell" className="relative block h-full px-2">
        <span className="relative block h-full min-h-8">
          <span
            className={cn(
              'absolute top-1/2 h-2.5 -translate-y-1/2 rounded-sm',
              failed ? 'bg-red-500' : barColours[typeCategory(r.type)],
              r.end === null && 'opacity-40',
            )}
            style={{ left: `${left * 100}%`, width: `max(2px, ${(right - left) * 100}%)` }}
            title={`${duration === null ? 'Unfinished' : formatMs(duration)} · starts at +${((r.start - sessionStart) / 1000).toFixed(3)} s`}
          />
        </span>
      </span>
    </div>
  );
});
