'use client';
// Console output and uncaught exceptions, in order, with their level, their source and the moment
// on the trace's axis; filtered by level and text. At most ROW_STEP lines render at a time.
import { memo, useDeferredValue, useMemo, useState } from 'react';
import {
  CONSOLE_GROUPS,
  CONSOLE_GROUP_LABELS,
  countGroups,
  filterConsole,
  sourceLocation,
  type ConsoleEntry,
  type ConsoleGroup,
} from '@/lib/client/trace-console';
import { formatAt, type TimeAxis } from '@/lib/client/trace-timeline';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { EmptyState } from '../ui/empty-state';
import { TerminalIcon } from '../ui/icons';
import { Input } from '../ui/input';
import { ShowMore, useRowLimit } from './row-limit';

/** Sources that are the console call itself; any other (network, security, ...) is the browser's and is named. */
const CONSOLE_CALLS = new Set(['log', 'info', 'warning', 'error', 'debug']);

const levelBadge: Record<ConsoleEntry['level'], { tone: BadgeTone; label: string }> = {
  error: { tone: 'danger', label: 'error' },
  warning: { tone: 'warning', label: 'warning' },
  info: { tone: 'accent', label: 'info' },
  log: { tone: 'neutral', label: 'log' },
  debug: { tone: 'neutral', label: 'debug' },
};

export function ConsolePanel({ entries, axis, onPick }: { entries: ConsoleEntry[]; axis: TimeAxis; onPick?: (t: number, tab: string | null) => void }) {
  const filters = useConsoleFilters(entries);
  const { filtered, rows } = filters;
  return (
    <div className="space-y-3">
      <ConsoleFilters
        groups={filters.groups}
        counts={filters.counts}
        onToggle={filters.toggle}
        onErrorsOnly={filters.errorsOnly}
        search={filters.search}
        onSearch={filters.changeSearch}
        listed={filtered.length}
        total={entries.length}
      />
      <div role="list" aria-label="Console messages" className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200">
        {filtered.length === 0 ? (
          <EmptyState
            icon={<TerminalIcon />}
            title={entries.length === 0 ? 'No console output in this trace' : 'No message matches these filters'}
            className="py-10"
          />
        ) : (
          filtered.slice(0, rows.shown).map((e) => <ConsoleLine key={e.key} entry={e} axis={axis} onPick={onPick} />)
        )}
      </div>
      <ShowMore shown={rows.shown} total={filtered.length} onMore={rows.more} />
    </div>
  );
}

/** The levels shown and the text searched for, the messages they list; any change starts the list from its first step again. */
function useConsoleFilters(entries: ConsoleEntry[]) {
  const [groups, setGroups] = useState<ReadonlySet<ConsoleGroup>>(() => new Set(CONSOLE_GROUPS));
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const rows = useRowLimit();
  const counts = useMemo(() => countGroups(entries), [entries]);
  const filtered = useMemo(() => filterConsole(entries, { groups, search: deferredSearch }), [entries, groups, deferredSearch]);
  const toggle = (group: ConsoleGroup) => {
    rows.reset();
    setGroups((current) => {
      const next = new Set(current);
      if (next.has(group)) next.delete(group);
      else next.add(group);
      return next;
    });
  };
  const errorsOnly = () => {
    rows.reset();
    setGroups(new Set(['error']));
  };
  const changeSearch = (value: string) => {
    rows.reset();
    setSearch(value);
  };
  return { groups, search, rows, counts, filtered, toggle, errorsOnly, changeSearch };
}

/** The filter bar: the levels shown (LevelToggles), the text search, and how many are listed. */
function ConsoleFilters({
  groups,
  counts,
  onToggle,
  onErrorsOnly,
  search,
  onSearch,
  listed,
  total,
}: {
  groups: ReadonlySet<ConsoleGroup>;
  counts: ReturnType<typeof countGroups>;
  onToggle: (group: ConsoleGroup) => void;
  onErrorsOnly: () => void;
  search: string;
  onSearch: (value: string) => void;
  listed: number;
  total: number;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" role="group" aria-label="Console filters">
      <LevelToggles groups={groups} counts={counts} onToggle={onToggle} onErrorsOnly={onErrorsOnly} />
      <div className="w-64">
        <Input
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder="Filter messages"
          aria-label="Search console"
          className="h-8 text-[13px]"
          spellCheck={false}
        />
      </div>
      <span className="ml-auto text-[13px] text-zinc-500 tabular-nums" data-testid="console-count">
        {listed.toLocaleString('en')} of {total.toLocaleString('en')} messages
      </span>
    </div>
  );
}

/** A toggle per level with its count, and "Errors only". */
function LevelToggles({
  groups,
  counts,
  onToggle,
  onErrorsOnly,
}: {
  groups: ReadonlySet<ConsoleGroup>;
  counts: ReturnType<typeof countGroups>;
  onToggle: (group: ConsoleGroup) => void;
  onErrorsOnly: () => void;
}) {
  return (
    <div className="inline-flex flex-wrap gap-1" role="group" aria-label="Levels">
      {CONSOLE_GROUPS.map((g) => (
        <button
          key={g}
          type="button"
          aria-pressed={groups.has(g)}
          onClick={() => onToggle(g)}
          className={cn(
            'rounded-md border px-2.5 py-1 text-[13px] font-medium transition-colors',
            groups.has(g) ? 'border-accent-300 bg-accent-50 text-accent-800' : 'border-zinc-200 bg-white text-zinc-500 hover:text-zinc-800',
          )}
        >
          {CONSOLE_GROUP_LABELS[g]} <span className="tabular-nums opacity-70">{counts[g].toLocaleString('en')}</span>
        </button>
      ))}
      <Button size="sm" variant="ghost" onClick={onErrorsOnly}>
        Errors only
      </Button>
    </div>
  );
}

const ConsoleLine = memo(function ConsoleLine({
  entry: e,
  axis,
  onPick,
}: {
  entry: ConsoleEntry;
  axis: TimeAxis;
  onPick?: (t: number, tab: string | null) => void;
}) {
  const badge = levelBadge[e.level];
  const where = sourceLocation(e);
  return (
    <div
      role="listitem"
      data-level={e.group}
      onClick={onPick && (() => onPick(e.t, e.tab))}
      title={onPick ? 'Show this moment in the recording' : undefined}
      className={cn(
        'grid grid-cols-[76px_84px_minmax(0,1fr)_auto] items-start gap-3 px-3 py-1.5 text-[13px]',
        e.group === 'error' && 'bg-red-50/50',
        e.group === 'warning' && 'bg-amber-50/50',
        onPick && 'cursor-pointer hover:bg-zinc-50',
      )}
    >
      <span className="pt-0.5 font-mono text-[11px] text-zinc-400 tabular-nums">{formatAt(axis, e.t)}</span>
      <span>
        <Badge tone={badge.tone}>{e.kind === 'exception' ? 'exception' : badge.label}</Badge>
      </span>
      <div className="min-w-0">
        <p
          className={cn(
            'font-mono text-[12px] break-words whitespace-pre-wrap',
            e.group === 'error' ? 'text-red-800' : e.group === 'warning' ? 'text-amber-900' : 'text-zinc-800',
          )}
        >
          {e.text}
        </p>
        {e.stack && (
          <details className="mt-0.5" onClick={(event) => event.stopPropagation()}>
            <summary className="cursor-pointer text-[12px] text-zinc-500 hover:text-zinc-700">Stack</summary>
            <pre className="mt-1 overflow-x-auto font-mono text-[11px] whitespace-pre-wrap text-zinc-600">{e.stack}</pre>
          </details>
        )}
        {e.kind === 'console' && !CONSOLE_CALLS.has(e.source) && <p className="text-[11px] text-zinc-400">source: {e.source}</p>}
      </div>
      <span
        className="max-w-56 truncate pt-0.5 text-right font-mono text-[11px] text-zinc-400"
        title={e.url ? `${e.url}${e.line ? `:${e.line}` : ''}${e.column ? `:${e.column}` : ''}` : undefined}
      >
        {where}
      </span>
    </div>
  );
});
