'use client';
// Account tokens: list with the active cap, create and rotate (one-time reveal), revoke, delete.
import { useState, type Dispatch, type SetStateAction } from 'react';
import { createAccessTokenSchema } from '@/lib/tokens/schemas';
import {
  useAccessTokens,
  useCreateAccessToken,
  useDeleteAccessToken,
  useRevokeAccessToken,
  useRotateAccessToken,
  type AccessToken,
  type RevealedAccessToken,
} from '@/lib/client/access-tokens';
import { validate } from '@/lib/client/forms';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { CreateLabelDialog } from '../ui/create-label-dialog';
import { DataTable, type Column } from '../ui/data-table';
import { ConfirmDialog, Dialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { KeyIcon, PlusIcon } from '../ui/icons';
import { SecretReveal } from '../ui/secret-reveal';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';

type DialogState =
  { kind: 'create' } | { kind: 'reveal'; token: RevealedAccessToken; rotated: boolean } | { kind: 'rotate' | 'revoke' | 'delete'; token: AccessToken } | null;

export function AccessTokensCard() {
  const tokens = useAccessTokens();
  const [dialog, setDialog] = useState<DialogState>(null);

  const active = tokens.data?.items.filter((t) => !t.revokedAt).length ?? 0;
  const cap = tokens.data?.cap ?? 10;
  const atCap = active >= cap;

  return (
    <Card aria-label="Access tokens">
      <CardHeader
        title="Access tokens"
        description={
          <>
            Authenticate the REST API with <code className="font-mono text-[12px] text-zinc-700">Authorization: Bearer acct_…</code>. A token acts as you, with
            your role in each workspace.
          </>
        }
        actions={
          <>
            {tokens.data && (
              <span className="text-[13px] text-zinc-500" data-testid="token-cap">
                {active} of {cap} active
              </span>
            )}
            <Button
              variant="primary"
              size="sm"
              disabled={!tokens.data || atCap}
              title={atCap ? `You hold ${cap} active tokens; revoke or delete one first` : undefined}
              onClick={() => setDialog({ kind: 'create' })}
            >
              <PlusIcon />
              Create token
            </Button>
          </>
        }
      />
      <TokensTable tokens={tokens} onCreate={() => setDialog({ kind: 'create' })} onAct={(kind, token) => setDialog({ kind, token })} />
      <TokenDialogs dialog={dialog} setDialog={setDialog} />
    </Card>
  );
}

type TokenAction = 'rotate' | 'revoke' | 'delete';

function TokensTable({
  tokens,
  onCreate,
  onAct,
}: {
  tokens: ReturnType<typeof useAccessTokens>;
  onCreate: () => void;
  onAct: (kind: TokenAction, token: AccessToken) => void;
}) {
  return (
    <DataTable<AccessToken>
      label="Access tokens"
      query={tokens}
      rows={tokens.data?.items}
      rowKey={(t) => t.id}
      rowClassName={(t) => (t.revokedAt ? 'text-zinc-400' : undefined)}
      empty={<NoTokens onCreate={onCreate} />}
      columns={tokenColumns(onAct)}
    />
  );
}

function NoTokens({ onCreate }: { onCreate: () => void }) {
  return (
    <EmptyState
      icon={<KeyIcon />}
      title="No access tokens"
      description="Create a token to call the API from scripts, CI or the command line."
      action={
        <Button size="sm" onClick={onCreate}>
          <PlusIcon />
          Create token
        </Button>
      }
    />
  );
}

const tokenColumns = (onAct: (kind: TokenAction, token: AccessToken) => void): Column<AccessToken>[] => [
  { key: 'label', header: 'Label', cell: (t) => <span className="font-medium text-zinc-900">{t.label}</span> },
  { key: 'prefix', header: 'Token', cell: (t) => <code className="font-mono text-[13px] text-zinc-600">{t.prefix}…</code> },
  { key: 'created', header: 'Created', className: 'hidden md:table-cell', cell: (t) => <Time value={t.createdAt} /> },
  { key: 'used', header: 'Last used', cell: (t) => <Time value={t.lastUsedAt} relative fallback="Never" /> },
  {
    key: 'status',
    header: 'Status',
    cell: (t) =>
      t.revokedAt ? (
        <Badge>Revoked</Badge>
      ) : (
        <Badge tone="success" dot>
          Active
        </Badge>
      ),
  },
  { key: 'actions', header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (t) => <TokenActions token={t} onAct={onAct} /> },
];

/** Rotate and revoke while the token is active; delete always. */
function TokenActions({ token: t, onAct }: { token: AccessToken; onAct: (kind: TokenAction, token: AccessToken) => void }) {
  return (
    <div className="flex justify-end gap-1">
      {!t.revokedAt && (
        <>
          <Button size="sm" variant="ghost" aria-label={`Rotate ${t.label}`} onClick={() => onAct('rotate', t)}>
            Rotate
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Revoke ${t.label}`} onClick={() => onAct('revoke', t)}>
            Revoke
          </Button>
        </>
      )}
      <Button size="sm" variant="danger-ghost" aria-label={`Delete ${t.label}`} onClick={() => onAct('delete', t)}>
        Delete
      </Button>
    </div>
  );
}

/** Create and rotate (each then reveals the new token once), revoke, delete. */
function TokenDialogs({ dialog, setDialog }: { dialog: DialogState; setDialog: Dispatch<SetStateAction<DialogState>> }) {
  const create = useCreateAccessToken();
  const rotate = useRotateAccessToken();
  const revoke = useRevokeAccessToken();
  const toast = useToast();
  // Closes only the dialog that asked, so an action that opened the next one (rotate → reveal) keeps it.
  const closeIf = (kind: NonNullable<DialogState>['kind']) => () => setDialog((d) => (d?.kind === kind ? null : d));
  return (
    <>
      <CreateLabelDialog
        open={dialog?.kind === 'create'}
        onClose={closeIf('create')}
        title="Create access token"
        description="Name it after where it will live, so you know what breaks if you revoke it."
        submitLabel="Create token"
        placeholder="CI on GitHub Actions"
        parse={(label) => validate(createAccessTokenSchema, { label })}
        mutation={create}
        onCreated={(token) => setDialog({ kind: 'reveal', token, rotated: false })}
      />

      {dialog?.kind === 'reveal' && <RevealedTokenDialog revealed={dialog} onClose={() => setDialog(null)} />}

      <ConfirmDialog
        open={dialog?.kind === 'rotate'}
        onClose={closeIf('rotate')}
        tone="primary"
        title={`Rotate “${dialog?.kind === 'rotate' ? dialog.token.label : ''}”?`}
        description="You get a new value with the same label. The current value stops working immediately."
        confirmLabel="Rotate token"
        onConfirm={async () => {
          if (dialog?.kind !== 'rotate') return;
          const token = await rotate.mutateAsync(dialog.token.id);
          setDialog({ kind: 'reveal', token, rotated: true });
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === 'revoke'}
        onClose={closeIf('revoke')}
        title={`Revoke “${dialog?.kind === 'revoke' ? dialog.token.label : ''}”?`}
        description="Requests with this token will be refused from now on. It stays in the list, marked revoked."
        confirmLabel="Revoke token"
        onConfirm={async () => {
          if (dialog?.kind === 'revoke') await revoke.mutateAsync(dialog.token.id);
        }}
        onDone={() => toast('Token revoked')}
      />
      <DeleteTokenDialog token={dialog?.kind === 'delete' ? dialog.token : null} onClose={closeIf('delete')} />
    </>
  );
}

/** A new token's value, shown once. */
function RevealedTokenDialog({ revealed, onClose }: { revealed: { token: RevealedAccessToken; rotated: boolean }; onClose: () => void }) {
  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={revealed.rotated ? `New value for “${revealed.token.label}”` : `Token “${revealed.token.label}” created`}
      description={
        revealed.rotated ? 'The previous value has stopped working. Update your scripts with this one.' : 'Use it as a bearer token for the REST API.'
      }
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <SecretReveal label="Access token" value={revealed.token.plaintextToken} />
    </Dialog>
  );
}

function DeleteTokenDialog({ token, onClose }: { token: AccessToken | null; onClose: () => void }) {
  const remove = useDeleteAccessToken();
  const toast = useToast();
  return (
    <ConfirmDialog
      open={token !== null}
      onClose={onClose}
      title={`Delete “${token?.label ?? ''}”?`}
      description="The token is removed for good; requests using it are refused."
      confirmLabel="Delete token"
      onConfirm={async () => {
        if (token) await remove.mutateAsync(token.id);
      }}
      onDone={() => toast('Token deleted')}
    />
  );
}
