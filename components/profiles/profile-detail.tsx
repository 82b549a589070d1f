'use client';
// One profile: what it holds, how to connect with it, its versions (restore), export, rename and
// delete. Export, rename, restore and delete are for owners and admins.
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useProfile, type Profile } from '@/lib/client/profiles';
import { formatBytes } from '../sessions/format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader, DescriptionList } from '../ui/card';
import { CodeBlock } from '../ui/code-block';
import { CopyableId } from '../ui/copyable-id';
import { PencilIcon, UserCircleIcon } from '../ui/icons';
import { DetailFrame } from '../ui/detail-frame';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { OriginList } from './origins';
import { DeleteProfileCard, ExportCard, RenameDialog } from './profile-actions';
import { SavingBadge } from './profile-bits';
import { VersionsCard } from './versions-card';

/** The connect URL with this profile, the key left for the script's author to fill in. */
export const profileConnectUrl = (proxyUrl: string, slug: string) => `${proxyUrl}/v1/connect?token=<ROUTER_KEY>&profile=${encodeURIComponent(slug)}`;

export function ProfileDetail({ slug, proxyUrl }: { slug: string; proxyUrl: string }) {
  const profile = useProfile(slug);
  const { canManage } = useActiveWorkspace();
  return (
    <DetailFrame
      query={profile}
      list={{ href: '/profiles', label: 'Profiles' }}
      missing={{ icon: <UserCircleIcon />, title: `No profile “${slug}”`, why: 'It was deleted, or it belongs to another workspace.' }}
      skeletons={['h-64 w-full rounded-xl', 'h-48 w-full rounded-xl']}
    >
      {(p) => <ProfileView profile={p} proxyUrl={proxyUrl} canManage={canManage} />}
    </DetailFrame>
  );
}

function ProfileView({ profile: p, proxyUrl, canManage }: { profile: Profile; proxyUrl: string; canManage: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const url = profileConnectUrl(proxyUrl, p.slug);
  return (
    <>
      <PageHeader
        eyebrow="Profile"
        title={
          <span className="flex items-center gap-3">
            {p.name}
            {p.saving && <SavingBadge />}
          </span>
        }
        description="Sessions that connect with this profile start from its current version and save a new one when they end."
        actions={
          canManage && (
            <Button size="sm" onClick={() => setRenaming(true)}>
              <PencilIcon />
              Rename
            </Button>
          )
        }
      />
      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <ProfileDetails profile={p} />
          <div className="space-y-6">
            <ConnectCard url={url} />
            <Card aria-label="Captured origins">
              <CardHeader title="Captured origins" description="Sites whose local storage the current version holds (cookies are counted above)." />
              <CardBody>
                {p.capturedOrigins.length > 0 ? <OriginList origins={p.capturedOrigins} /> : <p className="text-[13px] text-zinc-400">None yet</p>}
              </CardBody>
            </Card>
          </div>
        </div>
        <VersionsCard slug={p.slug} saving={p.saving} />
        <ExportCard profile={p} canManage={canManage} />
        {canManage && <DeleteProfileCard profile={p} />}
      </div>
      <RenameDialog profile={p} open={renaming} onClose={() => setRenaming(false)} />
    </>
  );
}

/** What the profile holds now, and when it was used. */
function ProfileDetails({ profile: p }: { profile: Profile }) {
  return (
    <Card aria-label="Details">
      <CardHeader title="Details" />
      <DescriptionList
        items={[
          { label: 'Slug', value: <CopyableId id={p.slug} label="Copy slug" /> },
          { label: 'Current version', value: p.version === 0 ? <Badge>Never saved</Badge> : <span className="tabular-nums">v{p.version}</span> },
          { label: 'Size', value: <span className="tabular-nums">{formatBytes(p.sizeBytes)}</span> },
          { label: 'Cookies', value: <span className="tabular-nums">{p.cookieCount.toLocaleString('en')}</span> },
          { label: 'Last used', value: <Time value={p.lastUsedAt} relative fallback="Never" /> },
          { label: 'Created', value: <Time value={p.createdAt} /> },
        ]}
      />
    </Card>
  );
}

/** The connect address with this profile, and how to load it without saving. */
function ConnectCard({ url }: { url: string }) {
  return (
    <Card aria-label="Connect with this profile">
      <CardHeader title="Connect with it" description="Log in once in a session with this profile; later sessions with it start logged in." />
      <CardBody className="space-y-3">
        <CodeBlock title="Connect URL" label="Profile connect URL" code={url} wrap />
        <p className="text-[13px] text-zinc-500">
          Add <code className="font-mono text-[12px] text-zinc-700">&amp;readOnly=1</code> to load it without saving changes back. A router&apos;s Connect tab
          fills in its key.
        </p>
      </CardBody>
    </Card>
  );
}
