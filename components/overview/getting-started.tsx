'use client';
// The "Getting started" checklist, as the server computes it from what exists (GET /v1/overview):
// shown until every step is done, then gone.
import Link from 'next/link';
import type { ChecklistItemId, Overview } from '@/lib/client/overview';
import { Card, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { CheckCircleIcon, ChevronRightIcon } from '../ui/icons';

interface Step {
  title: string;
  body: string;
  /** Where to do it; `managers: true` when only owners and admins can. */
  href: (firstRouterId: string | undefined) => string;
  managers?: boolean;
}

const steps: Record<ChecklistItemId, Step> = {
  add_provider: {
    title: 'Add a browser provider',
    body: 'Point a router at a cloud browser vendor, your own Chrome or the local browser pool.',
    href: (routerId) => (routerId ? `/routers/${routerId}/providers` : '/routers'),
    managers: true,
  },
  create_access_token: {
    title: 'Create an access token',
    body: 'Tokens authenticate the control-plane API from scripts and CI.',
    href: () => '/account',
  },
  invite_teammate: {
    title: 'Invite a teammate',
    body: 'Owners and admins can invite people as admins or members.',
    href: () => '/members',
    managers: true,
  },
  first_session: {
    title: 'Run a first session',
    body: 'Connect Playwright or Puppeteer to a router, or call the data API; the Connect tab has snippets.',
    href: (routerId) => (routerId ? `/routers/${routerId}/connect` : '/routers'),
  },
};

export function GettingStarted({
  checklist,
  firstRouterId,
  canManage,
}: {
  checklist: Overview['checklist'];
  firstRouterId: string | undefined;
  canManage: boolean;
}) {
  if (checklist.complete) return null;
  const done = checklist.items.filter((item) => item.done).length;
  return (
    <Card aria-label="Getting started">
      <CardHeader
        title="Getting started"
        description="A few steps to your first routed browser session. This list goes away once they are done."
        actions={
          <span className="text-[13px] font-medium text-zinc-600 tabular-nums" data-testid="checklist-progress">
            {done} of {checklist.items.length} done
          </span>
        }
      />
      <ol className="divide-y divide-zinc-100">
        {checklist.items.map((item) => (
          <StepRow key={item.id} item={item} firstRouterId={firstRouterId} canManage={canManage} />
        ))}
      </ol>
    </Card>
  );
}

/** One step of the list: done or to do, and a link to where it is done when this viewer can do it. */
function StepRow({ item, firstRouterId, canManage }: { item: Overview['checklist']['items'][number]; firstRouterId: string | undefined; canManage: boolean }) {
  const step = steps[item.id];
  const actionable = !item.done && (canManage || !step.managers);
  const inner = (
    <>
      <span
        className={cn(
          'flex size-6 shrink-0 items-center justify-center rounded-full',
          item.done ? 'text-emerald-600' : 'border border-zinc-300 text-transparent',
        )}
      >
        {item.done && <CheckCircleIcon className="size-6" />}
      </span>
      <span className="min-w-0 flex-1">
        <span className={cn('block text-sm font-medium', item.done ? 'text-zinc-500 line-through decoration-zinc-300' : 'text-zinc-900')}>{step.title}</span>
        <span className="block text-[13px] text-zinc-500">
          {!item.done && step.managers && !canManage ? 'An owner or admin of the workspace does this.' : step.body}
        </span>
      </span>
      {actionable && <ChevronRightIcon className="size-4 text-zinc-400" />}
    </>
  );
  return (
    <li data-done={item.done} aria-label={`${step.title}: ${item.done ? 'done' : 'to do'}`}>
      {actionable ? (
        <Link href={step.href(firstRouterId)} className="flex items-center gap-3.5 px-5 py-3.5 transition-colors hover:bg-zinc-50">
          {inner}
        </Link>
      ) : (
        <div className="flex items-center gap-3.5 px-5 py-3.5">{inner}</div>
      )}
    </li>
  );
}
