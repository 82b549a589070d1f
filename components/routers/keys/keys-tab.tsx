'use client';
// A router's keys (rkey_…): several may be live at once. Create and rotate show the new key once;
// revoked keys stay listed. Below, the router's chat link.
import { useRouter } from 'next/navigation';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { validate } from '@/lib/client/forms';
import { useActiveWorkspace } from '@/lib/client/me';
import { useCreateRouterKey, useRevokeRouterKey, useRotateRouterKeys, useRouterKeys, type RevealedRouterKey, type RouterKey } from '@/lib/client/router-keys';
import { createRouterKeySchema } from '@/lib/keys/schemas';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { CreateLabelDialog } from '../../ui/create-label-dialog';
import { DataTable, type Column } from '../../ui/data-table';
import { ConfirmDialog, Dialog } from '../../ui/dialog';
import { EmptyState } from '../../ui/empty-state';
import { KeyIcon, PlusIcon, RefreshIcon, TerminalIcon } from '../../ui/icons';
import { SecretReveal } from '../../ui/secret-reveal';
import { Time } from '../../ui/time';
import { useToast } from '../../ui/toast';
import { ChatLinkCard } from './chat-link-card';

/**
 * A new router key's notice. Unlike an account token it can be shown again: the router's newest
 * live key is kept encrypted, and GET /v1/api-keys/current/plaintext fills it into the Connect tab.
 */
export const ROUTER_KEY_NOTICE = 'Owners and admins can fetch it again on the Connect tab.';

type DialogState =
  { kind: 'create' } | { kind: 'rotate' } | { kind: 'reveal'; key: RevealedRouterKey; rotated: boolean } | { kind: 'revoke'; key: RouterKey } | null;

export function KeysTab({ routerId, proxyUrl }: { routerId: string; proxyUrl: string }) {
  const keys = useRouterKeys(routerId);
  const { canManage } = useActiveWorkspace();
  const [dialog, setDialog] = useState<DialogState>(null);

  return (
    <div className="space-y-6">
      <Card aria-label="Router keys">
        <CardHeader
          title="Router keys"
          description={
            <>
              The <code className="font-mono text-[12px] text-zinc-700">token</code> of the connect URL. Give each script or machine its own key, so you can
              revoke one without touching the others.
              {!canManage && (
                <span className="mt-1 block" data-testid="keys-member-note">
                  An owner or admin creates, rotates and revokes keys and hands them out; you see each key&apos;s prefix, never the key itself.
                </span>
              )}
            </>
          }
          actions={
            canManage && (
              <>
                <Button size="sm" onClick={() => setDialog({ kind: 'rotate' })} disabled={!keys.data}>
                  <RefreshIcon />
                  Rotate all
                </Button>
                <Button size="sm" variant="primary" onClick={() => setDialog({ kind: 'create' })} disabled={!keys.data}>
                  <PlusIcon />
                  Create key
                </Button>
              </>
            )
          }
        />
        <KeysTable keys={keys} canManage={canManage} onCreate={() => setDialog({ kind: 'create' })} onRevoke={(key) => setDialog({ kind: 'revoke', key })} />
      </Card>

      <ChatLinkCard routerId={routerId} proxyUrl={proxyUrl} />

      <KeyDialogs routerId={routerId} dialog={dialog} setDialog={setDialog} live={keys.data?.filter((k) => !k.revokedAt).length ?? 0} />
    </div>
  );
}

function KeysTable({
  keys,
  canManage,
  onCreate,
  onRevoke,
}: {
  keys: ReturnType<typeof useRouterKeys>;
  canManage: boolean;
  onCreate: () => void;
  onRevoke: (key: RouterKey) => void;
}) {
  return (
    <DataTable<RouterKey>
      label="Router keys"
      query={keys}
      rows={keys.data}
      rowKey={(k) => k.id}
      rowClassName={(k) => (k.revokedAt ? '[&_td]:text-zinc-400' : undefined)}
      empty={
        <EmptyState
          icon={<KeyIcon />}
          title="No keys"
          description="Without a live key nothing can connect to this router."
          action={
            canManage && (
              <Button size="sm" onClick={onCreate}>
                <PlusIcon />
                Create key
              </Button>
            )
          }
        />
      }
      columns={keyColumns(canManage, onRevoke)}
    />
  );
}

/** The table's columns: revoked keys keep their row, marked with when; `canManage` gets the revoke button of a live one. */
function keyColumns(canManage: boolean, onRevoke: (key: RouterKey) => void): Column<RouterKey>[] {
  return [
    { key: 'label', header: 'Label', cell: (k) => <span className={k.revokedAt ? undefined : 'font-medium text-zinc-900'}>{k.label}</span> },
    { key: 'prefix', header: 'Key', cell: (k) => <code className="font-mono text-[13px]">{k.prefix}…</code> },
    { key: 'created', header: 'Created', className: 'hidden md:table-cell', cell: (k) => <Time value={k.createdAt} /> },
    { key: 'used', header: 'Last used', cell: (k) => <Time value={k.lastUsedAt} relative fallback="Never" /> },
    {
      key: 'status',
      header: 'Status',
      cell: (k) =>
        k.revokedAt ? (
          <span className="flex items-center gap-2">
            <Badge>Revoked</Badge>
            <span className="hidden text-[12px] lg:inline">
              <Time value={k.revokedAt} relative />
            </span>
          </span>
        ) : (
          <Badge tone="success" dot>
            Live
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (k) =>
        canManage && !k.revokedAt ? (
          <Button size="sm" variant="danger-ghost" aria-label={`Revoke ${k.label}`} onClick={() => onRevoke(k)}>
            Revoke
          </Button>
        ) : null,
    },
  ];
}

/** Create (then the new key, once), rotate every key (then the new one), revoke one. */
function KeyDialogs({
  routerId,
  dialog,
  setDialog,
  live,
}: {
  routerId: string;
  dialog: DialogState;
  setDialog: Dispatch<SetStateAction<DialogState>>;
  live: number;
}) {
  const create = useCreateRouterKey(routerId);
  const rotate = useRotateRouterKeys(routerId);
  const revoke = useRevokeRouterKey(routerId);
  const toast = useToast();
  const closeIf = (kind: NonNullable<DialogState>['kind']) => () => setDialog((d) => (d?.kind === kind ? null : d));
  return (
    <>
      <CreateLabelDialog
        open={dialog?.kind === 'create'}
        onClose={closeIf('create')}
        title="Create router key"
        description="Name it after the script or machine that will use it."
        submitLabel="Create key"
        placeholder="Nightly scraper"
        parse={(label) => validate(createRouterKeySchema, { label, routerInstanceId: routerId })}
        mutation={create}
        onCreated={(key) => setDialog({ kind: 'reveal', key, rotated: false })}
      />

      {dialog?.kind === 'reveal' && <RevealedKeyDialog routerId={routerId} revealed={dialog} onClose={() => setDialog(null)} />}

      <ConfirmDialog
        open={dialog?.kind === 'rotate'}
        onClose={closeIf('rotate')}
        tone="primary"
        title="Rotate every key of this router?"
        description={`All ${live} live key${live === 1 ? '' : 's'} stop working at once and one new key is issued. Running sessions continue; new connections need the new key.`}
        confirmLabel="Rotate keys"
        onConfirm={async () => {
          const key = await rotate.mutateAsync(undefined);
          setDialog({ kind: 'reveal', key, rotated: true });
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === 'revoke'}
        onClose={closeIf('revoke')}
        title={`Revoke “${dialog?.kind === 'revoke' ? dialog.key.label : ''}”?`}
        description="Connections with this key are refused from now on (sessions already running continue). It stays listed, marked revoked."
        confirmLabel="Revoke key"
        onConfirm={async () => {
          if (dialog?.kind === 'revoke') await revoke.mutateAsync(dialog.key);
        }}
        onDone={() => toast('Key revoked')}
      />
    </>
  );
}

/** A new key, shown once here, with the way to the Connect tab. */
function RevealedKeyDialog({ routerId, revealed, onClose }: { routerId: string; revealed: { key: RevealedRouterKey; rotated: boolean }; onClose: () => void }) {
  const navigate = useRouter();
  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={revealed.rotated ? 'Keys rotated' : `Key “${revealed.key.label}” created`}
      description={
        revealed.rotated ? 'Every previous key of this router stopped working. Update your scripts with this one.' : 'Use it as the token of the connect URL.'
      }
      footer={
        <>
          <Button onClick={onClose}>Done</Button>
          <Button
            variant="primary"
            onClick={() => {
              onClose();
              navigate.push(`/routers/${routerId}/connect`);
            }}
          >
            <TerminalIcon />
            Use in Connect tab
          </Button>
        </>
      }
    >
      <SecretReveal label="Router key" value={revealed.key.plaintextKey} notice={ROUTER_KEY_NOTICE}>
        While it is the router&apos;s newest live key: we store a hash to check a key and keep the newest one encrypted for the Connect tab. If it leaks, revoke
        it.
      </SecretReveal>
    </Dialog>
  );
}
