'use client';
// Overview: the active workspace, the caller's role in it, its account state and its routers.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useActiveWorkspace, useMe, type Me } from '@/lib/client/me';
import { Badge, RoleBadge } from '../ui/badge';
import { ButtonLink } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { CheckCircleIcon, ChevronRightIcon, RouteIcon, UsersIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { cn } from '../ui/cn';

const accountStates = {
  free: { label: 'Free', tone: 'neutral', note: 'No wallet balance: 5,000 API calls a day.' },
  paid: { label: 'Paid', tone: 'success', note: 'Wallet balance above zero: 100,000 API calls a day.' },
  enterprise: { label: 'Enterprise', tone: 'accent', note: 'Enterprise agreement: 100,000 API calls a day.' },
} as const;

const roleNotes = {
  owner: 'Full control, including deleting the workspace.',
  admin: 'Can change configuration and manage members.',
  member: 'Can use and view the workspace; changes need an admin.',
} as const;

function Stat({ label, children, note }: { label: string; children: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs">
      <div className="text-[13px] font-medium text-zinc-500">{label}</div>
      <div className="mt-2 flex items-center gap-2 text-lg font-semibold text-zinc-900">{children}</div>
      {note && <p className="mt-1.5 text-[13px] text-zinc-500">{note}</p>}
    </div>
  );
}

type Router = Me['routers'][number];

export function Overview() {
  const me = useMe();
  const { workspace, role, canManage } = useActiveWorkspace();
  const data = me.data;
  if (!data || !workspace || !role) return null;
  const state = data.activeWorkspaceAccountState ? accountStates[data.activeWorkspaceAccountState] : null;

  return (
    <>
      <PageHeader
        eyebrow="Workspace"
        title={workspace.name}
        description={
          <>
            Slug <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[12px] text-zinc-700">{workspace.slug}</code>
          </>
        }
        actions={canManage && <ButtonLink href="/members"><UsersIcon />Invite people</ButtonLink>}
      />

      <div className="grid gap-4 sm:grid-cols-3">
        <Stat label="Your role" note={roleNotes[role]}>
          <RoleBadge role={role} />
        </Stat>
        <Stat
          label="Account state"
          note={
            <>
              {state?.note}{' '}
              <Link href="/billing" className="font-medium text-accent-600 hover:text-accent-700">
                Wallet and top-ups
              </Link>
            </>
          }
        >
          {state ? <Badge tone={state.tone} dot>{state.label}</Badge> : '—'}
          {data.activeWorkspacePlan && data.activeWorkspacePlan !== data.activeWorkspaceAccountState && <span className="text-[13px] font-normal text-zinc-500">plan {data.activeWorkspacePlan}</span>}
        </Stat>
        <Stat label="Routers" note="Each router is one connect address with its own providers and keys.">
          {data.routers.length}
        </Stat>
      </div>

      <Card className="mt-6">
        <CardHeader
          title="Routers"
          description="Where your Playwright and Puppeteer scripts connect."
          actions={<Link href="/routers" className="text-[13px] font-medium text-accent-600 hover:text-accent-700">Manage routers</Link>}
        />
        <DataTable<Router>
          label="Routers"
          rows={data.routers}
          rowKey={(r) => r.id}
          query={me}
          empty={<EmptyState icon={<RouteIcon />} title="No routers yet" description="Every workspace starts with a default router." />}
          columns={[
            {
              key: 'name',
              header: 'Name',
              cell: (r) => (
                <span className="flex items-center gap-2 font-medium text-zinc-900">
                  {r.name}
                  {r.id === data.activeRouterInstanceId && <Badge tone="accent">Active</Badge>}
                </span>
              ),
            },
            { key: 'slug', header: 'Slug', cell: (r) => <code className="font-mono text-[13px] text-zinc-600">{r.slug}</code> },
            { key: 'id', header: 'Router ID', className: 'hidden md:table-cell', cell: (r) => <code className="font-mono text-[12px] text-zinc-500">{r.id}</code> },
          ]}
        />
      </Card>

      <GettingStarted emailVerified={data.user.emailVerified} canManage={canManage} />
    </>
  );
}

function GettingStarted({ emailVerified, canManage }: { emailVerified: boolean; canManage: boolean }) {
  const steps = [
    { done: emailVerified, title: 'Verify your e-mail address', body: 'Use the link we sent you; the banner above can send a new one.', href: undefined },
    { done: false, title: 'Create an access token', body: 'Tokens authenticate the control-plane API from scripts and CI.', href: '/account' },
    ...(canManage ? [{ done: false, title: 'Invite your team', body: 'Owners and admins can invite people as admins or members.', href: '/members' }] : []),
    { done: false, title: 'Add a browser provider', body: 'Point a router at a cloud browser vendor or the local browser pool.', href: '/routers' },
  ];
  return (
    <Card className="mt-6">
      <CardHeader title="Getting started" description="A few steps to your first routed browser session." />
      <ol className="divide-y divide-zinc-100">
        {steps.map((step) => {
          const inner = (
            <>
              <span className={cn('flex size-6 shrink-0 items-center justify-center rounded-full', step.done ? 'text-emerald-600' : 'border border-zinc-300 text-transparent')}>
                {step.done && <CheckCircleIcon className="size-6" />}
              </span>
              <span className="min-w-0 flex-1">
                <span className={cn('block text-sm font-medium', step.done ? 'text-zinc-500 line-through decoration-zinc-300' : 'text-zinc-900')}>{step.title}</span>
                <span className="block text-[13px] text-zinc-500">{step.body}</span>
              </span>
              {step.href && <ChevronRightIcon className="size-4 text-zinc-400" />}
            </>
          );
          return (
            <li key={step.title}>
              {step.href ? (
                <Link href={step.href} className="flex items-center gap-3.5 px-5 py-3.5 transition-colors hover:bg-zinc-50">
                  {inner}
                </Link>
              ) : (
                <div className="flex items-center gap-3.5 px-5 py-3.5">{inner}</div>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
