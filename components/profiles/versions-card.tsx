'use client';
// A profile's kept versions, newest first. Restoring one (owner/admin) saves its state as a new
// version, so the versions in between stay and can be restored in turn.
import Link from 'next/link';
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useProfileVersions, useRestoreProfileVersion, type ProfileVersion } from '@/lib/client/profiles';
import { formatBytes } from '../sessions/format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { ConfirmDialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';
import { OriginsSummary } from './origins';
import { sourceLabel } from './profile-bits';

export function VersionsCard({ slug, saving }: { slug: string; saving: boolean }) {
  const versions = useProfileVersions(slug);
  const restore = useRestoreProfileVersion();
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  const [restoring, setRestoring] = useState<ProfileVersion | null>(null);

  return (
    <Card aria-label="Versions">
      <CardHeader title="Versions" description="The last 10 saved states. Restoring one makes it the current state, as a new version." />
      <DataTable<ProfileVersion>
        label="Versions"
        query={versions}
        rows={versions.data}
        rowKey={(v) => String(v.version)}
        empty={<EmptyState title="Never saved" description="The first session that connects with this profile saves its first version when it ends." />}
        columns={versionColumns(canManage ? setRestoring : null)}
      />
      <ConfirmDialog
        open={restoring !== null}
        onClose={() => setRestoring(null)}
        tone="primary"
        title={`Restore v${restoring?.version ?? ''}?`}
        description={
          <>
            Its cookies and local storage become the profile&apos;s current state, saved as a new version; the current one stays in the list.
            {saving && ' A session is saving to this profile now: what it saves at its end comes after the restored version.'}
          </>
        }
        confirmLabel="Restore version"
        onConfirm={() => restore.mutateAsync({ slug, version: restoring!.version })}
        onDone={() => toast(`Restored v${restoring?.version ?? ''}`)}
      />
    </Card>
  );
}

/** The table's columns; `onRestore` (null for members) asks to restore a version. */
function versionColumns(onRestore: ((version: ProfileVersion) => void) | null): Column<ProfileVersion>[] {
  return [
    {
      key: 'version',
      header: 'Version',
      cell: (v) => (
        <span className="flex items-center gap-2 tabular-nums">
          <span className="font-medium text-zinc-900">v{v.version}</span>
          {v.current && <Badge tone="accent">Current</Badge>}
        </span>
      ),
    },
    { key: 'created', header: 'Saved', cell: (v) => <Time value={v.createdAt} relative /> },
    { key: 'size', header: 'Size', className: 'text-right tabular-nums', cell: (v) => formatBytes(v.sizeBytes) },
    { key: 'origins', header: 'Origins', cell: (v) => <OriginsSummary origins={v.capturedOrigins} /> },
    { key: 'cookies', header: 'Cookies', className: 'text-right tabular-nums', cell: (v) => v.cookieCount.toLocaleString('en') },
    {
      key: 'source',
      header: 'Source',
      cell: (v) =>
        v.sessionLogId ? (
          <Link
            href={`/sessions?session=${encodeURIComponent(v.sessionLogId)}`}
            className="text-accent-600 hover:text-accent-700 hover:underline"
            aria-label={`Session ${v.sessionLogId} that saved v${v.version}`}
          >
            {sourceLabel(v.source)} <code className="font-mono text-[12px]">{v.sessionLogId.slice(0, 12)}</code>
          </Link>
        ) : (
          sourceLabel(v.source)
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (v) =>
        onRestore && !v.current ? (
          <Button size="sm" variant="ghost" aria-label={`Restore v${v.version}`} onClick={() => onRestore(v)}>
            Restore
          </Button>
        ) : null,
    },
  ];
}
