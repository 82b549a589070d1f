'use client';
// The newest sessions of the workspace, each opening its detail on the Sessions page.
import Link from 'next/link';
import type { Overview } from '@/lib/client/overview';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon } from '../ui/icons';
import { Time } from '../ui/time';
import { formatDuration, sessionDuration, useNow } from '../sessions/format';
import { SessionStateBadge } from '../sessions/session-state';

type LatestSession = Overview['latestSessions'][number];

export function LatestSessions({
  overview,
  query,
  connectHref,
}: {
  overview: Overview | undefined;
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  connectHref: string;
}) {
  const rows = overview?.latestSessions;
  const now = useNow(rows?.some((s) => s.state === 'active') ?? false);
  const routerName = (id: string | null) => overview?.routers.find((r) => r.id === id)?.name ?? '—';
  return (
    <Card aria-label="Latest sessions">
      <CardHeader
        title="Latest sessions"
        description="The newest sessions through any router."
        actions={
          <Link href="/sessions" className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
            All sessions
          </Link>
        }
      />
      <DataTable<LatestSession>
        label="Latest sessions"
        rows={rows}
        rowKey={(s) => s.id}
        query={query}
        empty={<NoSessionsYet connectHref={connectHref} />}
        columns={latestSessionColumns(routerName, now)}
      />
    </Card>
  );
}

/** The table's empty state, pointing at the Connect tab's snippets. */
function NoSessionsYet({ connectHref }: { connectHref: string }) {
  return (
    <EmptyState
      icon={<ActivityIcon />}
      title="No sessions yet"
      description="Sessions show here as soon as a script connects to a router. The Connect tab has ready-to-run snippets."
      action={
        <Link href={connectHref} className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
          Open the Connect tab
        </Link>
      }
    />
  );
}

/** A session's short id (opening it on the Sessions page), state, provider, router, start and duration so far. */
function latestSessionColumns(routerName: (id: string | null) => string, now: number): Column<LatestSession>[] {
  return [
    {
      key: 'id',
      header: 'Session',
      cell: (s) => (
        <Link
          href={`/sessions?session=${encodeURIComponent(s.id)}`}
          aria-label={`Open session ${s.id}`}
          className="font-mono text-[13px] text-accent-700 hover:underline"
        >
          {s.id.slice(0, 12)}…
        </Link>
      ),
    },
    { key: 'state', header: 'State', cell: (s) => <SessionStateBadge session={s} /> },
    { key: 'provider', header: 'Provider', cell: (s) => s.provider.name },
    { key: 'router', header: 'Router', className: 'hidden md:table-cell', cell: (s) => routerName(s.routerId) },
    { key: 'started', header: 'Started', cell: (s) => <Time value={s.startedAt} relative /> },
    { key: 'duration', header: 'Duration', className: 'text-right tabular-nums', cell: (s) => formatDuration(sessionDuration(s, now)) },
  ];
}
