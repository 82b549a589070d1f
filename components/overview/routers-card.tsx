'use client';
// The workspace's routers at a glance: each one's providers as the proxy sees them now (the same
// live state the Providers tab polls), its active sessions, and its sessions and data-API calls
// over the overview's window.
import Link from 'next/link';
import type { OverviewRouter } from '@/lib/client/overview';
import { useRouterLiveStatus } from '@/lib/client/providers';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { RouteIcon } from '../ui/icons';

/** Routers listed here; the rest are one click away. Each polls its live state. */
const SHOWN_ROUTERS = 8;
const HEALTH_INTERVAL_MS = 10_000;
const SHOWN_PROVIDERS = 4;

export function RoutersCard({
  routers,
  days,
  query,
}: {
  routers: OverviewRouter[] | undefined;
  days: number;
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
}) {
  const more = (routers?.length ?? 0) - SHOWN_ROUTERS;
  return (
    <Card aria-label="Routers">
      <CardHeader
        title="Routers"
        description={`Provider health now; sessions and data-API calls over the last ${days} days.`}
        actions={
          <Link href="/routers" className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
            {more > 0 ? `All ${routers!.length} routers` : 'Manage routers'}
          </Link>
        }
      />
      <DataTable<OverviewRouter>
        label="Routers"
        rows={routers?.slice(0, SHOWN_ROUTERS)}
        rowKey={(r) => r.id}
        query={query}
        skeletonRows={2}
        empty={<EmptyState icon={<RouteIcon />} title="No routers" description="Create a router to get a connect address for your scripts." />}
        columns={[
          {
            key: 'name',
            header: 'Router',
            cell: (r) => (
              <div className="min-w-0">
                <Link href={`/routers/${r.id}/providers`} className="font-medium text-zinc-900 hover:text-accent-700 hover:underline">
                  {r.name}
                </Link>
                <div className="font-mono text-[12px] text-zinc-500">{r.slug}</div>
              </div>
            ),
          },
          { key: 'health', header: 'Provider health', cell: (r) => <ProviderHealth router={r} /> },
          { key: 'active', header: 'Active now', className: 'text-right tabular-nums', cell: (r) => r.activeSessions.toLocaleString('en') },
          {
            key: 'sessions',
            header: 'Sessions',
            className: 'text-right tabular-nums',
            cell: (r) => <Figure value={r.sessions} extra={r.errored} extraLabel="errored" tone="text-red-700" />,
          },
          {
            key: 'calls',
            header: 'Data-API calls',
            className: 'text-right tabular-nums',
            cell: (r) => <Figure value={r.dataApiCalls} extra={r.dataApiFailed} extraLabel="failed" tone="text-amber-800" />,
          },
        ]}
      />
    </Card>
  );
}

function Figure({ value, extra, extraLabel, tone }: { value: number; extra: number; extraLabel: string; tone: string }) {
  return (
    <div>
      <div className={value === 0 ? 'text-zinc-400' : 'font-medium text-zinc-900'}>{value.toLocaleString('en')}</div>
      {extra > 0 && (
        <div className={`text-[12px] ${tone}`}>
          {extra.toLocaleString('en')} {extraLabel}
        </div>
      )}
    </div>
  );
}

function ProviderHealth({ router }: { router: OverviewRouter }) {
  const live = useRouterLiveStatus(router.id, { enabled: router.providerCount > 0, intervalMs: HEALTH_INTERVAL_MS });
  const testId = `health-${router.slug}`;
  if (router.providerCount === 0) {
    return (
      <Link href={`/routers/${router.id}/providers`} data-testid={testId} className="text-[13px] font-medium text-amber-700 hover:underline">
        No providers: add one
      </Link>
    );
  }
  const status = live.data;
  if (!status)
    return (
      <span data-testid={testId} className="text-zinc-400">
        {live.error ? 'Live state unavailable' : '…'}
      </span>
    );
  if (!status.available) {
    return (
      <span data-testid={testId} className="text-[13px] text-zinc-400" title={status.reason}>
        Live state unavailable
      </span>
    );
  }
  if (status.providers.length === 0)
    return (
      <span data-testid={testId} className="text-[13px] text-zinc-500">
        No enabled provider
      </span>
    );
  const checkedAt = new Date(status.checkedAt).getTime();
  return (
    <div data-testid={testId} className="flex flex-wrap gap-1.5">
      {status.providers.slice(0, SHOWN_PROVIDERS).map((p) => {
        const cooling = p.cooldownUntil !== null && new Date(p.cooldownUntil).getTime() > checkedAt;
        const [tone, word] = cooling
          ? (['warning', 'cooling down'] as const)
          : p.healthy
            ? (['success', 'healthy'] as const)
            : (['danger', 'unreachable'] as const);
        return (
          <span key={p.id} title={`${p.slug}: ${word}, ${p.active} active${p.maxConcurrent !== null ? ` of ${p.maxConcurrent}` : ''}`}>
            <Badge tone={tone} dot>
              {p.slug}
              <span className="sr-only"> {word}</span>
            </Badge>
          </span>
        );
      })}
      {status.providers.length > SHOWN_PROVIDERS && <span className="text-[12px] text-zinc-500">+{status.providers.length - SHOWN_PROVIDERS} more</span>}
    </div>
  );
}
