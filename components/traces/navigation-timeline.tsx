'use client';
// Each tab on the trace's time axis: when it opened and closed, and its main-frame navigations as
// points (same-document ones, history API or #fragment, as rings), with their addresses listed below.
import { axisFraction, formatAt, type TabTimeline, type TimeAxis } from '@/lib/client/trace-timeline';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { EmptyState } from '../ui/empty-state';
import { RouteIcon } from '../ui/icons';
import { PlayheadLine, type Playhead } from './playhead';

export function NavigationTimeline({
  tabs,
  axis,
  playhead,
  onPick,
}: {
  tabs: TabTimeline[];
  axis: TimeAxis;
  playhead: Playhead | null;
  onPick?: (t: number, tab: string | null) => void;
}) {
  if (tabs.length === 0)
    return <EmptyState icon={<RouteIcon />} title="No tabs or navigations in this trace" className="rounded-lg border border-zinc-200 py-10" />;
  return (
    <div className="space-y-4" data-testid="navigation-timeline">
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-[12px] text-zinc-500">
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2.5 rounded-full bg-accent-600" /> new document
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2.5 rounded-full border-2 border-accent-600 bg-white" /> same document (history API, #fragment)
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-2 w-5 rounded-sm bg-zinc-200" /> tab open
        </span>
      </p>
      {tabs.map((tab, i) => (
        <TabRow key={tab.tab} tab={tab} index={i} axis={axis} playhead={playhead} onPick={onPick} />
      ))}
    </div>
  );
}

interface TabRowProps {
  tab: TabTimeline;
  index: number;
  axis: TimeAxis;
  playhead: Playhead | null;
  onPick?: (t: number, tab: string | null) => void;
}

/** One tab: its life on the axis with its navigations as points, and their addresses below. */
function TabRow({ tab, index, axis, playhead, onPick }: TabRowProps) {
  return (
    <section aria-label={`Tab ${index + 1}`} className="overflow-hidden rounded-lg border border-zinc-200">
      <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-zinc-100 bg-zinc-50/60 px-3 py-2 text-[13px]">
        <span className="min-w-0 truncate">
          <span className="font-medium text-zinc-900">Tab {index + 1}</span>
          {tab.url && (
            <span className="ml-2 text-zinc-500" title={tab.url}>
              {tab.url}
            </span>
          )}
        </span>
        <span className="text-[12px] text-zinc-500 tabular-nums">
          {tab.openedAt !== null ? `opened ${formatAt(axis, tab.openedAt)}` : 'open before the trace'}
          {tab.closedAt !== null ? ` · closed ${formatAt(axis, tab.closedAt)}` : ' · open at the end'}
          {tab.openerId && ' · popup'}
        </span>
      </header>
      <div className="px-3 pt-4 pb-3">
        <div className="relative h-6" aria-hidden="true">
          <div className="absolute inset-x-0 top-1/2 h-px bg-zinc-200" />
          <div
            className="absolute top-1/2 h-2 -translate-y-1/2 rounded-sm bg-zinc-200"
            style={{ left: `${axisFraction(axis, tab.openedAt ?? axis.start) * 100}%`, right: `${(1 - axisFraction(axis, tab.closedAt ?? axis.end)) * 100}%` }}
          />
          {tab.navigations.map((n) => (
            <button
              key={n.seq}
              type="button"
              tabIndex={-1}
              onClick={onPick && (() => onPick(n.t, tab.tab))}
              title={`${formatAt(axis, n.t)} ${n.url}${n.sameDocument ? ' (same document)' : ''}`}
              className={cn(
                'absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full ring-2 ring-white',
                n.sameDocument ? 'border-2 border-accent-600 bg-white' : 'bg-accent-600',
                !onPick && 'cursor-default',
              )}
              style={{ left: `${axisFraction(axis, n.t) * 100}%` }}
            />
          ))}
          <PlayheadLine playhead={playhead} axis={axis} />
        </div>
      </div>
      <NavigationList tab={tab} index={index} axis={axis} onPick={onPick} />
    </section>
  );
}

/** The tab's navigations, each a row that moves the player there when there is one. */
function NavigationList({ tab, index, axis, onPick }: Omit<TabRowProps, 'playhead'>) {
  if (tab.navigations.length === 0)
    return <p className="border-t border-zinc-100 px-3 py-2 text-[13px] text-zinc-500">No main-frame navigation on this tab.</p>;
  return (
    <ol aria-label={`Navigations of tab ${index + 1}`} className="divide-y divide-zinc-100 border-t border-zinc-100">
      {tab.navigations.map((n) => (
        <li key={n.seq}>
          {onPick ? (
            <button
              type="button"
              onClick={() => onPick(n.t, tab.tab)}
              title="Show this moment in the recording"
              className={cn(navRow, 'text-left hover:bg-zinc-50')}
            >
              <NavigationRow n={n} axis={axis} />
            </button>
          ) : (
            <div className={navRow}>
              <NavigationRow n={n} axis={axis} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

const navRow = 'grid w-full grid-cols-[76px_minmax(0,1fr)_auto] items-center gap-3 px-3 py-1.5 text-[13px]';

function NavigationRow({ n, axis }: { n: TabTimeline['navigations'][number]; axis: TimeAxis }) {
  return (
    <>
      <span className="font-mono text-[11px] text-zinc-400 tabular-nums">{formatAt(axis, n.t)}</span>
      <span className="truncate font-mono text-[12px] text-zinc-800" title={n.url}>
        {n.url}
      </span>
      {n.sameDocument ? <Badge>same document</Badge> : <span />}
    </>
  );
}
