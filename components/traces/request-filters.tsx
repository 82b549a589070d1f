'use client';
// The network panel's filter bar: request type, failed only, URL text, the waterfall's zoom to the
// listed requests, and how many of the trace's requests are listed. The panel holds the values
// (network-panel.tsx); this only shows them and reports changes.
import { TYPE_FILTERS, TYPE_FILTER_LABELS, type TypeFilter } from '@/lib/client/trace-model';
import { cn } from '../ui/cn';
import { Input } from '../ui/input';

export interface RequestFilterValues {
  type: TypeFilter;
  failedOnly: boolean;
  search: string;
  /** The waterfall stretched over the listed requests rather than the whole session. */
  fit: boolean;
}

interface RequestFiltersProps {
  filters: RequestFilterValues;
  onChange: (change: Partial<RequestFilterValues>) => void;
  failedCount: number;
  listed: number;
  total: number;
}

/** Type, failure and URL filters, the waterfall's zoom, and how many requests are listed. */
export function RequestFilters({ filters, onChange, failedCount, listed, total }: RequestFiltersProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" role="group" aria-label="Request filters">
      <div role="radiogroup" aria-label="Type" className="inline-flex flex-wrap rounded-lg border border-zinc-200 bg-zinc-50 p-0.5 text-[13px]">
        {TYPE_FILTERS.map((t) => (
          <button
            key={t}
            type="button"
            role="radio"
            aria-checked={filters.type === t}
            onClick={() => onChange({ type: t })}
            className={cn(
              'rounded-md px-2.5 py-1 font-medium transition-colors',
              filters.type === t ? 'bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200' : 'text-zinc-500 hover:text-zinc-800',
            )}
          >
            {TYPE_FILTER_LABELS[t]}
          </button>
        ))}
      </div>
      <label className="flex items-center gap-2 text-[13px] text-zinc-700">
        <input
          type="checkbox"
          checked={filters.failedOnly}
          onChange={(e) => onChange({ failedOnly: e.target.checked })}
          className="size-4 rounded border-zinc-300 accent-accent-600"
        />
        Failed only
        <span className="text-zinc-400 tabular-nums">({failedCount.toLocaleString('en')})</span>
      </label>
      <div className="w-64">
        <Input
          type="search"
          value={filters.search}
          onChange={(e) => onChange({ search: e.target.value })}
          placeholder="Filter by URL"
          aria-label="Search requests"
          className="h-8 text-[13px]"
          spellCheck={false}
        />
      </div>
      <label className="flex items-center gap-2 text-[13px] text-zinc-700" title="Stretch the waterfall over the listed requests rather than the whole session">
        <input
          type="checkbox"
          checked={filters.fit}
          onChange={(e) => onChange({ fit: e.target.checked })}
          className="size-4 rounded border-zinc-300 accent-accent-600"
        />
        Zoom to requests
      </label>
      <span className="ml-auto text-[13px] text-zinc-500 tabular-nums" data-testid="request-count">
        {listed.toLocaleString('en')} of {total.toLocaleString('en')} requests
      </span>
    </div>
  );
}
