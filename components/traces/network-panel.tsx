'use client';
// The network waterfall: one row per request (each redirect hop its own), bars on the trace's time
// axis, filters by type, failure and URL text (request-filters.tsx), and the clicked request's
// details beside the list. At most ROW_STEP rows render at a time (row-limit.tsx): a trace has
// thousands. The rows themselves are in request-rows.tsx.
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { filterRequests, isFailedRequest, type NetworkRequest } from '@/lib/client/trace-model';
import { traceAxis, type TimeAxis } from '@/lib/client/trace-timeline';
import { cn } from '../ui/cn';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon } from '../ui/icons';
import { PlayheadLine, type Playhead } from './playhead';
import { RequestDetail } from './request-detail';
import { RequestFilters, type RequestFilterValues } from './request-filters';
import { RequestHeader, RequestRow, WATERFALL } from './request-rows';
import { ShowMore, useRowLimit } from './row-limit';

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
  const panel = useNetworkPanel(requests, axis, onPick);
  const { filtered, selected } = panel;
  return (
    <div className="space-y-3">
      <RequestFilters filters={panel.filters} onChange={panel.changeFilters} failedCount={panel.failedCount} listed={filtered.length} total={requests.length} />

      <div className={cn('grid gap-4', selected && 'xl:grid-cols-[minmax(0,1fr)_460px]')}>
        <RequestTable
          requests={requests}
          filtered={filtered}
          rows={panel.rows}
          axis={panel.fitted}
          sessionStart={axis.start}
          playhead={playhead}
          selectedKey={panel.selectedKey}
          compact={panel.compact}
          onPick={panel.pick}
        />
        {selected && <RequestDetail request={selected} axis={axis} onClose={panel.close} />}
      </div>
    </div>
  );
}

/** The panel's state: the filters and the requests they list, the waterfall's axis, the selected request. */
function useNetworkPanel(requests: NetworkRequest[], axis: TimeAxis, onPick?: (t: number, tab: string | null) => void) {
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
  const changeFilters = (change: Partial<RequestFilterValues>) => {
    setFilters((current) => ({ ...current, ...change }));
    // Zooming changes no row; a filter starts the list from its first step again.
    if (change.fit === undefined) rows.reset();
  };
  const close = () => setSelectedKey(null);
  return { filters, changeFilters, rows, filtered, fitted, selected, selectedKey, compact, failedCount, pick, close };
}

/** The waterfall: its header, the rows shown so far under the playhead's line, and "Show more". */
function RequestTable({
  requests,
  filtered,
  rows,
  axis,
  sessionStart,
  playhead,
  selectedKey,
  compact,
  onPick,
}: {
  requests: NetworkRequest[];
  filtered: NetworkRequest[];
  rows: ReturnType<typeof useRowLimit>;
  /** The axis the bars are placed on (the session's, or fitted to the listed requests). */
  axis: TimeAxis;
  sessionStart: number;
  playhead: Playhead | null;
  selectedKey: string | null;
  compact: boolean;
  onPick: (r: NetworkRequest) => void;
}) {
  return (
    <div
      role="table"
      aria-label="Requests"
      aria-rowcount={filtered.length + 1}
      className="min-w-0 self-start overflow-hidden rounded-lg border border-zinc-200 text-[13px]"
    >
      <RequestHeader compact={compact} axis={axis} />
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
              <PlayheadLine playhead={playhead} axis={axis} />
            </div>
          </div>
          {filtered.slice(0, rows.shown).map((r) => (
            <RequestRow key={r.key} request={r} axis={axis} sessionStart={sessionStart} selected={r.key === selectedKey} compact={compact} onPick={onPick} />
          ))}
        </div>
      )}
      <ShowMore shown={rows.shown} total={filtered.length} onMore={rows.more} className="border-t border-zinc-100 bg-zinc-50/60 px-3 py-2" />
    </div>
  );
}

/** A little room on either side, so the first and last bars do not touch the edges. */
function padded(axis: TimeAxis): TimeAxis {
  const room = Math.max(1, (axis.end - axis.start) * 0.03);
  return { start: axis.start - room, end: axis.end + room };
}
