'use client';
// The frame of a router's pages: its name, a switcher to the other routers, and the tabs. Opening
// a router makes it the dashboard's active router (POST /v1/routers/active).
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { useMe } from '@/lib/client/me';
import { OVERVIEW_DAYS, useOverview } from '@/lib/client/overview';
import { useRouterInstance, useRouters, useSetActiveRouter } from '@/lib/client/routers';
import { Badge } from '../ui/badge';
import { ButtonLink } from '../ui/button';
import { ErrorState, EmptyState } from '../ui/empty-state';
import { CheckIcon, ChevronRightIcon, ChevronUpDownIcon, RouteIcon } from '../ui/icons';
import { Menu, MenuItem, MenuLabel } from '../ui/menu';
import { PageHeader } from '../ui/page-header';
import { TabNav } from '../ui/tabs';
import { strategyLabel } from './strategies';

const plural = (n: number, one: string) => `${n.toLocaleString('en')} ${n === 1 ? one : `${one}s`}`;

type RouterUsage = NonNullable<ReturnType<typeof useOverview>['data']>['routers'][number];

export const routerTabs = [
  { key: 'providers', label: 'Providers' },
  { key: 'keys', label: 'Keys' },
  { key: 'settings', label: 'Settings' },
  { key: 'connect', label: 'Connect' },
] as const;

export function RouterFrame({ routerId, children }: { routerId: string; children: ReactNode }) {
  const router = useRouterInstance(routerId);
  const usage = useOverview().data?.routers.find((r) => r.id === routerId);
  const pathname = usePathname();
  const { data: me } = useMe();
  const setActive = useSetActiveRouter();
  const activeId = me?.activeRouterInstanceId;
  const exists = Boolean(router.data);

  useEffect(() => {
    if (exists && activeId && activeId !== routerId && !setActive.isPending) setActive.mutate(routerId);
    // Only when the router (or what the server thinks is active) changes, not on every mutation state.
  }, [exists, activeId, routerId]);

  if (isApiError(router.error, 'not_found')) return <RouterNotFound />;
  if (router.error && !router.data) return <ErrorState error={router.error} onRetry={() => void router.refetch()} />;

  const tab = routerTabs.find((t) => pathname.endsWith(`/${t.key}`))?.key ?? 'providers';
  const data = router.data;
  return (
    <>
      <PageHeader
        eyebrow={
          <span className="flex items-center gap-1.5">
            <Link href="/routers" className="hover:text-zinc-800">
              Routers
            </Link>
            <ChevronRightIcon className="size-3.5 text-zinc-400" />
            <span className="text-zinc-400">{data?.slug ?? '…'}</span>
          </span>
        }
        title={data ? data.name : <span className="inline-block h-7 w-56 animate-pulse rounded-md bg-zinc-200/70" aria-label="Loading" />}
        description={data ? <RouterFacts router={data} usage={usage} /> : undefined}
        actions={<RouterSwitcher routerId={routerId} tab={tab} />}
      />
      <TabNav
        label="Router sections"
        className="mb-6"
        tabs={routerTabs.map((t) => ({ href: `/routers/${routerId}/${t.key}`, label: t.label, active: t.key === tab }))}
      />
      {children}
    </>
  );
}

/** Jumps to the same tab of another router. */
function RouterSwitcher({ routerId, tab }: { routerId: string; tab: string }) {
  const routers = useRouters();
  const navigate = useRouter();
  if (!routers.data || routers.data.length < 2) return null;
  return (
    <Menu
      placement="bottom-end"
      triggerLabel="Switch router"
      triggerClassName="inline-flex h-9 items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50"
      trigger={() => (
        <>
          <RouteIcon className="size-4 text-zinc-500" />
          Switch router
          <ChevronUpDownIcon className="size-4 text-zinc-400" />
        </>
      )}
      panelClassName="w-64"
    >
      {(close) => (
        <>
          <MenuLabel>Routers</MenuLabel>
          {routers.data.map((r) => (
            <MenuItem
              key={r.id}
              selected={r.id === routerId}
              onSelect={() => {
                close();
                if (r.id !== routerId) navigate.push(`/routers/${r.id}/${tab}`);
              }}
            >
              <span className="min-w-0 flex-1 truncate">{r.name}</span>
              {r.id === routerId ? <CheckIcon className="text-accent-600" /> : <code className="font-mono text-[11px] text-zinc-400">{r.slug}</code>}
            </MenuItem>
          ))}
        </>
      )}
    </Menu>
  );
}

/** Strategy, providers, keys, and what went through the router lately. */
function RouterFacts({ router: data, usage }: { router: NonNullable<ReturnType<typeof useRouterInstance>['data']>; usage: RouterUsage | undefined }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      {data.description && <span>{data.description}</span>}
      <Badge>{strategyLabel(data.strategy)}</Badge>
      <span className="text-zinc-400">
        {data.providerCount} provider{data.providerCount === 1 ? '' : 's'} · {data.apiKeyCount} live key{data.apiKeyCount === 1 ? '' : 's'}
      </span>
      {usage && (
        <span className="text-zinc-400" data-testid="router-usage">
          {`· ${plural(usage.sessions, 'session')} and ${plural(usage.dataApiCalls, 'data-API call')}${usage.dataApiFailed > 0 ? ` (+${usage.dataApiFailed.toLocaleString('en')} failed)` : ''} in the last ${OVERVIEW_DAYS} days`}
        </span>
      )}
    </span>
  );
}

function RouterNotFound() {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white">
      <EmptyState
        className="py-16"
        icon={<RouteIcon />}
        title="Router not found"
        description="It was deleted, or it belongs to another workspace than the one you are in."
        action={<ButtonLink href="/routers">All routers</ButtonLink>}
      />
    </div>
  );
}
