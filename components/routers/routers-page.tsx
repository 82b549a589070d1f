'use client';
// Routers: every router of the workspace with its strategy, providers and live keys, and create.
import Link from 'next/link';
import { useState } from 'react';
import { useActiveWorkspace, useMe } from '@/lib/client/me';
import { OVERVIEW_DAYS, useOverview } from '@/lib/client/overview';
import { useRouters, type Router } from '@/lib/client/routers';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ChevronRightIcon, PlusIcon, RouteIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { CreateRouterDialog } from './create-router-dialog';
import { strategyLabel } from './strategies';

export function RoutersPage() {
  const routers = useRouters();
  const usage = useOverview().data?.routers;
  const { data: me } = useMe();
  const { workspace, canManage } = useActiveWorkspace();
  const [creating, setCreating] = useState(false);

  const createButton = canManage && (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <PlusIcon />
      Create router
    </Button>
  );

  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Routers"
        description="A router is one WebSocket address for your Playwright and Puppeteer scripts. It picks a provider for each session by its strategy, fails over, and queues when every provider is full."
        actions={createButton}
      />
      <Card>
        <DataTable<Router>
          label="Routers"
          query={routers}
          rows={routers.data}
          rowKey={(r) => r.id}
          empty={
            <EmptyState
              icon={<RouteIcon />}
              title="No routers"
              description="Create a router to get a connect address for your scripts."
              action={createButton}
            />
          }
          columns={routerColumns(me?.activeRouterInstanceId ?? null, usage)}
        />
      </Card>
      <CreateRouterDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

type RouterUsage = NonNullable<ReturnType<typeof useOverview>['data']>['routers'];

/** The table's columns: `activeId` gets its badge, `usage` the data-API figures of the overview's window. */
function routerColumns(activeId: string | null, usage: RouterUsage | undefined): Column<Router>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      cell: (r) => <RouterNameCell router={r} active={r.id === activeId} />,
    },
    { key: 'slug', header: 'Slug', cell: (r) => <code className="font-mono text-[13px] text-zinc-600">{r.slug}</code> },
    { key: 'strategy', header: 'Strategy', className: 'hidden md:table-cell', cell: (r) => strategyLabel(r.strategy) },
    {
      key: 'providers',
      header: 'Providers',
      className: 'text-right',
      cell: (r) => (
        <span
          className={r.providerCount === 0 ? 'text-amber-700' : 'tabular-nums'}
          title={r.providerCount === 0 ? 'Connections are refused until the router has a provider' : undefined}
        >
          {r.providerCount}
        </span>
      ),
    },
    { key: 'keys', header: 'Live keys', className: 'text-right tabular-nums', cell: (r) => r.apiKeyCount },
    {
      key: 'calls',
      header: `Data-API calls, ${OVERVIEW_DAYS} d`,
      className: 'hidden text-right tabular-nums md:table-cell',
      cell: (r) => <DataApiCallsCell usage={usage?.find((x) => x.id === r.id)} />,
    },
    { key: 'created', header: 'Created', className: 'hidden lg:table-cell', cell: (r) => <Time value={r.createdAt} /> },
    {
      key: 'open',
      header: <span className="sr-only">Open</span>,
      className: 'w-10 text-right',
      cell: (r) => (
        <Link
          href={`/routers/${r.id}/providers`}
          aria-label={`Open ${r.name}`}
          className="inline-flex rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
        >
          <ChevronRightIcon className="size-4" />
        </Link>
      ),
    },
  ];
}

/** A router's name, linked to its page, with the Active badge and its description. */
function RouterNameCell({ router, active }: { router: Router; active: boolean }) {
  return (
    <div className="min-w-0">
      <span className="flex items-center gap-2">
        <Link href={`/routers/${router.id}/providers`} className="font-medium text-zinc-900 hover:text-accent-700 hover:underline">
          {router.name}
        </Link>
        {active && <Badge tone="accent">Active</Badge>}
      </span>
      {router.description && <p className="mt-0.5 max-w-sm truncate text-[13px] text-zinc-500">{router.description}</p>}
    </div>
  );
}

/** A router's data-API calls in the overview's window, and the failed ones; a dash without figures. */
function DataApiCallsCell({ usage }: { usage: RouterUsage[number] | undefined }) {
  if (!usage) return <span className="text-zinc-400">—</span>;
  return (
    <span title={`${usage.dataApiCalls} answered, ${usage.dataApiFailed} failed; ${usage.sessions} sessions`}>
      {usage.dataApiCalls.toLocaleString('en')}
      {usage.dataApiFailed > 0 && <span className="ml-1 text-[12px] text-amber-800">+{usage.dataApiFailed.toLocaleString('en')} failed</span>}
    </span>
  );
}
