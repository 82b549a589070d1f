'use client';
// Profiles: saved browser state of the workspace, a page at a time; create an empty one (owner/admin)
// or import a Playwright storageState (any member). A row's name opens the profile's own page.
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useProfiles, type Profile } from '@/lib/client/profiles';
import { formatBytes } from '../sessions/format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ChevronRightIcon, PlusIcon, UserCircleIcon } from '../ui/icons';
import { Pager } from '../ui/pager';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';
import { CreateProfileDialog } from './create-profile-dialog';
import { ImportProfileDialog } from './import-profile-dialog';
import { OriginsSummary } from './origins';
import { profileHref, SavingBadge } from './profile-bits';

const PAGE_SIZE = 25;

const PROFILE_COLUMNS: Column<Profile>[] = [
  {
    key: 'profile',
    header: 'Profile',
    cell: (p) => (
      <div className="max-w-64 min-w-0">
        <div className="flex items-center gap-2">
          <Link href={profileHref(p.slug)} className="truncate font-medium text-zinc-900 hover:text-accent-700 hover:underline">
            {p.name}
          </Link>
          {p.saving && <SavingBadge />}
        </div>
        <code className="block truncate font-mono text-[12px] text-zinc-500">{p.slug}</code>
      </div>
    ),
  },
  { key: 'size', header: 'Size', className: 'text-right tabular-nums', cell: (p) => formatBytes(p.sizeBytes) },
  { key: 'origins', header: 'Origins', cell: (p) => <OriginsSummary origins={p.capturedOrigins} /> },
  {
    key: 'version',
    header: 'Version',
    className: 'tabular-nums',
    cell: (p) => (p.version === 0 ? <Badge>Never saved</Badge> : <span>v{p.version}</span>),
  },
  { key: 'used', header: 'Last used', className: 'hidden md:table-cell', cell: (p) => <Time value={p.lastUsedAt} relative fallback="Never" /> },
  {
    key: 'open',
    header: <span className="sr-only">Open</span>,
    className: 'w-10 text-right',
    cell: (p) => (
      <Link
        href={profileHref(p.slug)}
        aria-label={`Open profile ${p.slug}`}
        className="inline-flex rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
      >
        <ChevronRightIcon className="size-4" />
      </Link>
    ),
  },
];

/** The two ways to add a profile, each a dialog of its own. */
type AddDialog = 'create' | 'import';

export function ProfilesPage() {
  const { workspace, canManage } = useActiveWorkspace();
  const [page, setPage] = useState(1);
  const profiles = useProfiles(page, PAGE_SIZE);
  const [dialog, setDialog] = useState<AddDialog | null>(null);
  const toast = useToast();
  const total = profiles.data?.total ?? 0;
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, page * PAGE_SIZE);
  const items = profiles.data?.items;

  const actions = <AddProfileButtons canManage={canManage} onOpen={setDialog} />;

  const added = (profile: Profile, verb: string) => {
    setDialog(null);
    toast(`Profile “${profile.name}” ${verb}`);
  };

  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Profiles"
        description="Saved browser state (cookies and local storage per origin) that sessions load at start and save back at the end, so a login survives from one session to the next."
      />
      <Card aria-label="Profiles">
        <CardHeader
          title="Saved profiles"
          description="Each holds its last 10 versions; a session saving to one holds its lock until it ends."
          actions={total > 0 ? actions : undefined}
        />
        <DataTable<Profile>
          label="Profiles"
          query={profiles}
          rows={items}
          rowKey={(p) => p.id}
          skeletonRows={4}
          empty={<NoProfiles actions={actions} />}
          columns={PROFILE_COLUMNS}
        />
        {total > PAGE_SIZE && (
          <Pager first={first} last={last} total={total} previousDisabled={page <= 1} onPrevious={() => setPage(page - 1)} onNext={() => setPage(page + 1)} />
        )}
      </Card>
      <CreateProfileDialog open={dialog === 'create'} onClose={() => setDialog(null)} onCreated={(p) => added(p, 'created')} />
      <ImportProfileDialog open={dialog === 'import'} onClose={() => setDialog(null)} onImported={(p) => added(p, 'imported')} />
    </>
  );
}

/** The buttons that open an add dialog: import for any member, create for owners and admins. */
function AddProfileButtons({ canManage, onOpen }: { canManage: boolean; onOpen: (dialog: AddDialog) => void }) {
  return (
    <>
      <Button size="sm" onClick={() => onOpen('import')}>
        Import storageState
      </Button>
      {canManage && (
        <Button variant="primary" size="sm" onClick={() => onOpen('create')}>
          <PlusIcon />
          Create profile
        </Button>
      )}
    </>
  );
}

/** No profile yet: what one is for, and the buttons that make one. */
function NoProfiles({ actions }: { actions: ReactNode }) {
  return (
    <EmptyState
      icon={<UserCircleIcon />}
      title="No profiles yet"
      description={
        <>
          A profile keeps a browser&apos;s cookies and local storage between sessions. Connect with{' '}
          <code className="font-mono text-[12px] text-zinc-700">profile=&lt;slug&gt;</code>: log in once, and later sessions with the same profile start logged
          in. An unknown slug starts an empty profile, or import a Playwright storageState here.
        </>
      }
      action={<div className="flex justify-center gap-2">{actions}</div>}
    />
  );
}
