'use client';
// The network waterfall's rows (network-panel.tsx lays them out): the grid its columns share, the
// header with the waterfall's ruler, and one row per request with its name, figures and bar on the
// trace's time axis. Rows are memoised: the page around them renders often.
import { memo } from 'react';
import { formatBytes } from '../sessions/format';
import { isFailedRequest, splitUrl, typeCategory, type NetworkRequest } from '@/lib/client/trace-model';
import { axisFraction, axisTicks, formatMs, type TimeAxis } from '@/lib/client/trace-timeline';
import { cn } from '../ui/cn';

/**
 * Name, status, type, size, time, waterfall: the waterfall's share is fixed so the playhead can
 * overlay it (WATERFALL). Below `md` (a phone) only name, status, time and a narrower waterfall,
 * so the names stay readable.
 */
const COLUMNS = 'grid grid-cols-[minmax(0,1fr)_44px_52px_18%] md:grid-cols-[minmax(0,1fr)_64px_72px_72px_64px_30%]';
/** Beside the details panel: name, status, time, waterfall. */
const COMPACT_COLUMNS = 'grid grid-cols-[minmax(0,1fr)_44px_52px_18%] md:grid-cols-[minmax(0,1fr)_64px_64px_30%]';
/** The waterfall column's share, for the playhead's overlay. */
export const WATERFALL = 'w-[18%] md:w-[30%]';
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

/** The columns' names, the waterfall's ruler above its column. */
export function RequestHeader({ compact, axis }: { compact: boolean; axis: TimeAxis }) {
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
export const RequestRow = memo(function RequestRow({
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
  const failed = isFailedRequest(r);
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
      <NameCell request={r} failed={failed} />
      <FigureCells request={r} failed={failed} compact={compact} duration={duration} />
      <BarCell request={r} axis={axis} sessionStart={sessionStart} failed={failed} duration={duration} />
    </div>
  );
});

/** The method and path, the origin below, and why it failed. */
function NameCell({ request: r, failed }: { request: NetworkRequest; failed: boolean }) {
  const { origin, path } = splitUrl(r.url);
  return (
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
  );
}

/** Status, type and size (not beside the details panel), time. */
function FigureCells({ request: r, failed, compact, duration }: { request: NetworkRequest; failed: boolean; compact: boolean; duration: number | null }) {
  return (
    <>
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
    </>
  );
}

/** The request's bar on the waterfall, coloured by type (red when it failed, faint while unfinished). */
function BarCell({
  request: r,
  axis,
  sessionStart,
  failed,
  duration,
}: {
  request: NetworkRequest;
  axis: TimeAxis;
  sessionStart: number;
  failed: boolean;
  duration: number | null;
}) {
  const left = axisFraction(axis, r.start);
  const right = r.end === null ? 1 : axisFraction(axis, r.end);
  return (
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
  );
}
