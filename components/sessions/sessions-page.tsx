'use client';
// Sessions: every browser session of the workspace, newest first, with the API's filters; active
// ones update live. A row opens its details in a side panel (?session=<id>): a click anywhere on
// it, or its session button from the keyboard.
import { useActiveWorkspace } from '@/lib/client/me';
import { useSessions, type Session } from '@/lib/client/sessions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon, ChevronRightIcon, SearchCodeIcon, UserCircleIcon, VideoIcon } from '../ui/icons';
import { Pager } from '../ui/pager';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { formatBytes, formatDuration, sessionDuration, useNow } from './format';
import { SessionDrawer } from './session-drawer';
import { CLEARED_FILTERS, SessionFiltersBar, useSessionFilters } from './session-filters';
import { SessionStateBadge } from './session-state';
import { SessionsChart } from './sessions-chart';

/** What the session is beside a connect session: a chat agent's, recorded, traced, with a profile. */
function SessionMarks({ session }: { session: Session }) {
  return (
    <>
      {session.kind === 'agent' && <Badge tone="accent">Agent</Badge>}
      {session.hasRecording && (
        <span role="img" aria-label="Recorded" title="Recorded" className="inline-flex text-accent-600">
          <VideoIcon className="size-4" />
        </span>
      )}
      {session.hasReplay && (
        <span role="img" aria-label="Traced" title="Traced" className="inline-flex text-accent-600">
          <SearchCodeIcon className="size-4" />
        </span>
      )}
      {session.profileId && (
        <span role="img" aria-label="With a profile" title="With a profile" className="inline-flex text-accent-600">
          <UserCircleIcon className="size-4" />
        </span>
      )}
    </>
  );
}

/** The list's columns; `open` shows a session in the side panel. */
function sessionColumns(open: (id: string) => void, now: number): Column<Session>[] {
  return [
    {
      key: 'id',
      header: 'Session',
      cell: (s) => (
        <div className="flex items-center gap-2">
          <button type="button" onClick={() => open(s.id)} className="group text-left" aria-label={`Details of session ${s.id}`}>
            <code className="font-mono text-[13px] text-zinc-900 group-hover:text-accent-700 group-hover:underline">{s.id.slice(0, 12)}</code>
          </button>
          <SessionMarks session={s} />
        </div>
      ),
    },
    { key: 'state', header: 'State', cell: (s) => <SessionStateBadge session={s} /> },
    {
      key: 'provider',
      header: 'Provider',
      cell: (s) => (
        <div className="min-w-0">
          <div className="truncate text-zinc-900">{s.provider.name ?? '—'}</div>
          {s.provider.slug && s.provider.slug !== s.provider.name && <code className="font-mono text-[12px] text-zinc-500">{s.provider.slug}</code>}
        </div>
      ),
    },
    { key: 'started', header: 'Started', cell: (s) => <Time value={s.startedAt} relative /> },
    {
      key: 'duration',
      header: 'Duration',
      className: 'text-right tabular-nums',
      cell: (s) => <span className={s.state === 'active' ? 'text-emerald-700' : undefined}>{formatDuration(sessionDuration(s, now))}</span>,
    },
    {
      key: 'traffic',
      header: 'In / out',
      className: 'hidden text-right tabular-nums md:table-cell',
      cell: (s) =>
        s.state === 'active' && s.totalBytes === 0 ? (
          <span className="text-zinc-400">—</span>
        ) : (
          <>
            {formatBytes(s.bytesIn)} <span className="text-zinc-300">/</span> {formatBytes(s.bytesOut)}
          </>
        ),
    },
    {
      key: 'messages',
      header: 'Messages',
      className: 'hidden text-right tabular-nums lg:table-cell',
      cell: (s) => (s.state === 'active' && s.messageCount === 0 ? <span className="text-zinc-400">—</span> : s.messageCount.toLocaleString('en')),
    },
    {
      key: 'open',
      header: <span className="sr-only">Open</span>,
      className: 'w-10 text-right',
      // The row opens the panel; its button in the first column is what the keyboard reaches.
      cell: () => <ChevronRightIcon className="ml-auto size-4 text-zinc-400" />,
    },
  ];
}

export function SessionsPage() {
  const { workspace } = useActiveWorkspace();
  const { filters, since, selected, set } = useSessionFilters();
  const sessions = useSessions(filters);
  const items = sessions.data?.items;
  const anyActive = items?.some((s) => s.state === 'active') ?? false;
  const now = useNow(anyActive);
  const total = sessions.data?.total ?? 0;
  const first = total === 0 ? 0 : (filters.page - 1) * filters.pageSize + 1;
  const last = Math.min(total, filters.page * filters.pageSize);
  const filtered = Boolean(filters.state || filters.kind || filters.routerInstanceId || filters.since);

  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Sessions"
        description="Every browser session that went through your routers: which provider served it, for how long, and how much traffic it carried. Active sessions update live."
      />
      <div className="space-y-6">
        <SessionsChart filters={{ kind: filters.kind, routerInstanceId: filters.routerInstanceId, provider: filters.provider }} />
        <Card aria-label="Session list">
          <SessionFiltersBar filters={filters} since={since} set={set} />
          <DataTable<Session>
            label="Sessions"
            query={sessions}
            rows={items}
            rowKey={(s) => s.id}
            skeletonRows={5}
            rowClassName={(s) => (s.id === selected ? 'bg-accent-50/50' : undefined)}
            onRowClick={(s) => set({ session: s.id })}
            empty={<NoSessions filtered={filtered} onClear={() => set(CLEARED_FILTERS)} />}
            columns={sessionColumns((id) => set({ session: id }), now)}
          />
          {total > 0 && (
            <Pager
              first={first}
              last={last}
              total={total}
              rangeTestId="sessions-range"
              previousDisabled={filters.page <= 1}
              onPrevious={() => set({ page: filters.page > 2 ? String(filters.page - 1) : null })}
              onNext={() => set({ page: String(filters.page + 1) })}
            />
          )}
        </Card>
      </div>
      <SessionDrawer sessionId={selected} onClose={() => set({ session: null })} />
    </>
  );
}

/** The list when it has nothing: none yet (and where they come from), or none that match the filters. */
function NoSessions({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <EmptyState
      icon={<ActivityIcon />}
      title={filtered ? 'No sessions match these filters' : 'No sessions yet'}
      description={
        filtered
          ? 'Try another state, router or time range.'
          : 'Sessions appear here as soon as a script connects to one of your routers. The Connect tab of a router has ready-to-run snippets.'
      }
      action={
        filtered && (
          <Button size="sm" onClick={onClear}>
            Clear filters
          </Button>
        )
      }
    />
  );
}
