'use client';
// The list's filters, kept in the page's URL so a filtered view can be shared and survives reload.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useProviders } from '@/lib/client/providers';
import { useRouters } from '@/lib/client/routers';
import { SESSION_KINDS, SESSION_STATES, type SessionFilters } from '@/lib/client/sessions';
import { Button } from '../ui/button';
import { Field, Select } from '../ui/input';

const DAY_MS = 86_400_000;
export const SINCE_PRESETS = { '1d': 1, '7d': 7, '30d': 30, '90d': 90, '180d': 180 } as const;
type SincePreset = keyof typeof SINCE_PRESETS;
const sinceLabels: Record<SincePreset, string> = {
  '1d': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '180d': 'Last 180 days',
};
export const PAGE_SIZE = 25;
/** The changes that clear every filter (and go back to page 1); the selected session stays. */
export const CLEARED_FILTERS: Record<string, null> = { state: null, kind: null, router: null, provider: null, since: null, page: null };

/**
 * A query string held in state and mirrored into the page's URL. State is the source of truth, so
 * quick successive changes build on each other (the URL updates a moment later); a navigation that
 * changes the URL from outside (the sidebar link) resets it.
 */
function useUrlQuery(): [string, Dispatch<SetStateAction<string>>] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const navigate = useRouter();
  const fromUrl = searchParams.toString();
  const [query, setQuery] = useState(fromUrl);
  // URLs this hook wrote that the router has not reported back yet; anything else came from outside.
  const pending = useRef(new Set<string>());
  // The URL last asked for (or last come from outside). Compared with it, not with `fromUrl`: a
  // change made before the router reports the previous one (close a panel, reopen it at once)
  // would otherwise look like no change and never reach the URL.
  const requested = useRef(fromUrl);

  useEffect(() => {
    if (pending.current.has(fromUrl)) {
      if (fromUrl === query) pending.current.clear();
      return;
    }
    pending.current.clear();
    requested.current = fromUrl;
    setQuery(fromUrl);
    // Only a new URL matters here; `query` is read, not watched.
  }, [fromUrl]);
  useEffect(() => {
    if (query === requested.current) return;
    requested.current = query;
    pending.current.add(query);
    navigate.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    // Only a new query is written; the URL is read, not watched.
  }, [query]);
  return [query, setQuery];
}

/**
 * The filters as the API's query, mirrored into the URL (`useUrlQuery`). `since` rounds up to the
 * minute: stable between renders, and never past the API's 180-day limit.
 */
export function useSessionFilters(): {
  filters: SessionFilters;
  since: SincePreset;
  selected: string | null;
  set: (changes: Record<string, string | null>) => void;
} {
  const [query, setQuery] = useUrlQuery();
  const params = new URLSearchParams(query);
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = params.get(name);
    return allowed.includes(value as T) ? (value as T) : undefined;
  };
  const since = (pick('since', Object.keys(SINCE_PRESETS) as SincePreset[]) ?? '30d') as SincePreset;
  const routerInstanceId = params.get('router') || undefined;
  const filters: SessionFilters = {
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: PAGE_SIZE,
    state: pick('state', SESSION_STATES),
    kind: pick('kind', SESSION_KINDS),
    routerInstanceId,
    provider: routerInstanceId ? params.get('provider') || undefined : undefined,
    // Rounded up to the minute, so renders within one minute ask for the same page.
    // eslint-disable-next-line react-hooks/purity
    since: since === '30d' ? undefined : Math.ceil((Date.now() - SINCE_PRESETS[since] * DAY_MS) / 60_000) * 60_000,
  };
  const set = (changes: Record<string, string | null>) =>
    setQuery((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      return next.toString();
    });
  return { filters, since, selected: params.get('session'), set };
}

/** The workspace's routers as a filter ("All routers" first); shared by the sessions and recordings lists. */
export function RouterFilter({ value, onChange, className }: { value: string; onChange: (routerId: string) => void; className?: string }) {
  const routers = useRouters();
  return (
    <Field label="Router" htmlFor="filter-router" className={className}>
      <Select id="filter-router" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">All routers</option>
        {routers.data?.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function SessionFiltersBar({
  filters,
  since,
  set,
}: {
  filters: SessionFilters;
  since: SincePreset;
  set: (changes: Record<string, string | null>) => void;
}) {
  // Any filter change starts again at page 1.
  const change =
    (name: string, extra: Record<string, string | null> = {}) =>
    (event: { target: { value: string } }) =>
      set({ [name]: event.target.value, page: null, ...extra });
  const filtered = Boolean(filters.state || filters.kind || filters.routerInstanceId || since !== '30d');
  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-zinc-100 bg-zinc-50/50 px-5 py-3.5" role="group" aria-label="Filters">
      <Field label="State" htmlFor="filter-state" className="w-36">
        <Select id="filter-state" value={filters.state ?? ''} onChange={change('state')}>
          <option value="">All states</option>
          <option value="active">Active</option>
          <option value="closed">Closed</option>
          <option value="errored">Errored</option>
        </Select>
      </Field>
      <RouterFilter value={filters.routerInstanceId ?? ''} onChange={(value) => set({ router: value, page: null, provider: null })} className="w-44" />
      <ProviderField routerId={filters.routerInstanceId} value={filters.provider ?? ''} onChange={change('provider')} />
      <Field label="Kind" htmlFor="filter-kind" className="w-32">
        <Select id="filter-kind" value={filters.kind ?? ''} onChange={change('kind')}>
          <option value="">All kinds</option>
          <option value="route">Connect</option>
          <option value="agent">Chat agent</option>
        </Select>
      </Field>
      <SinceFilter value={since} onChange={change('since')} />
      {filtered && (
        <Button variant="ghost" size="sm" className="mb-0.5" onClick={() => set(CLEARED_FILTERS)}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

type SelectChange = (event: { target: { value: string } }) => void;

/** The provider filter: a router's providers once a router is chosen, a disabled hint before. */
function ProviderField({ routerId, value, onChange }: { routerId: string | undefined; value: string; onChange: SelectChange }) {
  return routerId ? (
    <ProviderFilter routerId={routerId} value={value} onChange={onChange} />
  ) : (
    <Field label="Provider" htmlFor="filter-provider" className="w-44">
      <Select id="filter-provider" disabled title="Choose a router first: provider slugs belong to a router">
        <option>Pick a router</option>
      </Select>
    </Field>
  );
}

function ProviderFilter({ routerId, value, onChange }: { routerId: string; value: string; onChange: SelectChange }) {
  const providers = useProviders(routerId);
  return (
    <Field label="Provider" htmlFor="filter-provider" className="w-44">
      <Select id="filter-provider" value={value} onChange={onChange}>
        <option value="">All providers</option>
        {providers.data?.items.map((p) => (
          <option key={p.id} value={p.slug}>
            {p.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** How far back the list goes, as one of the presets. */
function SinceFilter({ value, onChange }: { value: SincePreset; onChange: SelectChange }) {
  return (
    <Field label="Started" htmlFor="filter-since" className="w-40">
      <Select id="filter-since" value={value} onChange={onChange}>
        {(Object.keys(SINCE_PRESETS) as SincePreset[]).map((preset) => (
          <option key={preset} value={preset}>
            {sinceLabels[preset]}
          </option>
        ))}
      </Select>
    </Field>
  );
}
