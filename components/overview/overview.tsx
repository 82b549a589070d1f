'use client';
// Overview: what a workspace owner looks at first (GET /v1/overview). The checklist until it is
// done, then the figures: active sessions, the window's sessions and data-API calls, the free
// sessions left and the wallet; a chart per day; each router's provider health and usage; errors
// by provider; the latest sessions.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useActiveWorkspace, useMe } from '@/lib/client/me';
import { OVERVIEW_DAYS, useOverview, type Overview as OverviewData } from '@/lib/client/overview';
import { accountStates } from '../billing/labels';
import { Badge, RoleBadge } from '../ui/badge';
import { ButtonLink } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { ErrorState } from '../ui/empty-state';
import { UsersIcon } from '../ui/icons';
import { Money } from '../ui/money';
import { PageHeader } from '../ui/page-header';
import { Skeleton } from '../ui/skeleton';
import { ActivityChart, chartLegend } from './activity-chart';
import { GettingStarted } from './getting-started';
import { LatestSessions } from './latest-sessions';
import { ProviderErrors } from './provider-errors';
import { RoutersCard } from './routers-card';

const days = OVERVIEW_DAYS;

function Stat({ label, value, children }: { label: string; value: ReactNode | undefined; children?: ReactNode }) {
  return (
    <section aria-label={label} className="flex flex-col rounded-xl border border-zinc-200 bg-white p-5 shadow-xs">
      <h2 className="text-[13px] font-medium text-zinc-500">{label}</h2>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums">
        {value === undefined ? <Skeleton className="h-8 w-16" /> : <span data-testid="stat-value">{value}</span>}
      </div>
      {children && <div className="mt-1.5 text-[13px] text-zinc-500">{children}</div>}
    </section>
  );
}

// What each role may do, beside the caller's role badge.
const roleNotes = {
  owner: 'Full control, including deleting the workspace.',
  admin: 'Can change configuration and manage members.',
  member: 'Can use and view the workspace; changes need an owner or admin.',
} as const;

export function Overview() {
  const me = useMe();
  const { workspace, role, canManage } = useActiveWorkspace();
  const overview = useOverview({ days, poll: true });
  if (!me.data || !workspace || !role) return null;
  const data = overview.data;
  const firstRouterId = data?.routers[0]?.id ?? me.data.routers[0]?.id;

  return (
    <>
      <PageHeader
        eyebrow="Workspace"
        title={workspace.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span>
              Slug <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[12px] text-zinc-700">{workspace.slug}</code>
            </span>
            <span aria-label={`Your role: ${role}`}>
              <RoleBadge role={role} />
            </span>
            <span className="text-zinc-500">{roleNotes[role]}</span>
          </span>
        }
        actions={
          canManage && (
            <ButtonLink href="/members">
              <UsersIcon />
              Invite people
            </ButtonLink>
          )
        }
      />

      {overview.error && !data ? (
        <Card>
          <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
        </Card>
      ) : (
        <div className="space-y-6">
          {data && <GettingStarted checklist={data.checklist} firstRouterId={firstRouterId} canManage={canManage} />}
          <Figures data={data} />
          <ActivityCard data={data} />
          <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <RoutersCard routers={data?.routers} days={days} query={overview} />
            <ProviderErrors overview={data} days={days} />
          </div>
          <LatestSessions overview={data} query={overview} connectHref={firstRouterId ? `/routers/${firstRouterId}/connect` : '/routers'} />
        </div>
      )}
    </>
  );
}

/** The chart of the last `days` days, its totals and its legend. */
function ActivityCard({ data }: { data: OverviewData | undefined }) {
  return (
    <Card aria-label="Activity">
      <CardHeader
        title="Sessions and data-API calls"
        description={
          data
            ? `${plural(data.totals.sessions, 'session')}${data.totals.errored ? ` (${data.totals.errored.toLocaleString('en')} errored)` : ''} and ${plural(data.totals.dataApiCalls, 'data-API call')}${data.totals.dataApiFailed ? ` (+${data.totals.dataApiFailed.toLocaleString('en')} failed)` : ''} in the last ${days} days (UTC).`
            : `The last ${days} days (UTC).`
        }
        actions={
          <div className="flex flex-wrap items-center gap-3 text-[12px] text-zinc-500" aria-hidden="true">
            {chartLegend.map((item) => (
              <span key={item.label} className="flex items-center gap-1.5">
                <span className={`size-2.5 rounded-sm ${item.className}`} />
                {item.label}
              </span>
            ))}
          </div>
        }
      />
      <div className="px-5 py-4">{data ? <ActivityChart series={data.series} /> : <Skeleton className="h-[190px] w-full" />}</div>
    </Card>
  );
}

const utcDate = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const plural = (n: number, one: string) => `${n.toLocaleString('en')} ${n === 1 ? one : `${one}s`}`;

function Figures({ data }: { data: OverviewData | undefined }) {
  const state = data ? accountStates[data.wallet.accountState] : null;
  const free = data?.freeSessions;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      <Stat label="Active sessions" value={data?.activeSessions.toLocaleString('en')}>
        <Link href="/sessions?state=active" className="font-medium text-accent-600 hover:text-accent-700">
          Open right now
        </Link>
      </Stat>
      <Stat label={`Sessions, ${days} days`} value={data?.totals.sessions.toLocaleString('en')}>
        {data && (data.totals.errored > 0 ? <span className="text-red-700">{plural(data.totals.errored, 'errored session')}</span> : 'None errored')}
      </Stat>
      <Stat label={`Data-API calls, ${days} days`} value={data?.totals.dataApiCalls.toLocaleString('en')}>
        {data && (data.totals.dataApiFailed > 0 ? <span className="text-amber-800">{plural(data.totals.dataApiFailed, 'failed call')}</span> : 'None failed')}
      </Stat>
      <Stat label="Free sessions left" value={free?.remaining.toLocaleString('en')}>
        {free && (
          <>
            of {free.includedCount.toLocaleString('en')} this month; renews {utcDate.format(new Date(free.resetsAt))}
          </>
        )}
      </Stat>
      <Stat label="Wallet balance" value={data ? <Money millicents={data.wallet.balanceMillicents} /> : undefined}>
        {state && (
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Badge tone={state.tone} dot>
              {state.label}
            </Badge>
            <Link href="/billing" className="font-medium text-accent-600 hover:text-accent-700">
              Wallet and top-ups
            </Link>
          </span>
        )}
      </Stat>
    </div>
  );
}
