'use client';
// The operator's confirmations of a workspace change (components/operator/workspaces-page.tsx): a
// credit grant with its amount and note, and the yes-or-no of an enterprise mark or a suspension.
import { useState } from 'react';
import { useGrantCredits, useUpdateAdminWorkspace, type AdminWorkspace } from '@/lib/client/admin';
import { formatCents, parseDollars } from '@/lib/client/money';
import { fieldErrorsFromApi, type FieldErrors } from '@/lib/client/forms';
import { type WorkspaceAction } from './workspace-columns';
import { ErrorAlert } from '../ui/alert';
import { ConfirmDialog, FormDialog } from '../ui/dialog';
import { TextField } from '../ui/input';
import { Money } from '../ui/money';
import { useToast } from '../ui/toast';

/** The grant's amount and note, their errors, and the grant itself (a toast and `onClose` once it lands). */
function useGrantForm(workspace: AdminWorkspace, onClose: () => void) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const grant = useGrantCredits();
  const toast = useToast();
  const cents = parseDollars(amount);

  const submit = () => {
    if (cents === null || cents < 1) return setErrors({ amountCents: 'Enter an amount in US dollars, like 50 or 12.50' });
    setErrors({});
    grant.mutate(
      { id: workspace.id, amountCents: cents, note: note.trim() },
      {
        onSuccess: () => {
          toast(`${formatCents(cents)} granted to ${workspace.name}`);
          onClose();
        },
        onError: (error) => setErrors(fieldErrorsFromApi(error, ['amountCents', 'note']) ?? {}),
      },
    );
  };

  return { amount, setAmount, note, setNote, errors, grant, cents, submit };
}

export function GrantDialog({ workspace, onClose }: { workspace: AdminWorkspace; onClose: () => void }) {
  const { amount, setAmount, note, setNote, errors, grant, cents, submit } = useGrantForm(workspace, onClose);

  return (
    <FormDialog
      open
      onClose={onClose}
      title={`Grant credits to ${workspace.name}`}
      description={
        <>
          Adds money to the wallet of <span className="font-medium text-zinc-700">{workspace.slug}</span> (balance{' '}
          <Money millicents={workspace.balanceMillicents} />) as a credit grant in its ledger. No one is charged.
        </>
      }
      submitLabel={cents ? `Grant ${formatCents(cents)}` : 'Grant credits'}
      pending={grant.isPending}
      onSubmit={submit}
    >
      <TextField
        label="Amount (USD)"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amountCents}
        hint="Up to $100,000.00 in one grant."
        autoFocus
      />
      <TextField
        label="Note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
        hint="Why: kept in the ledger entry with your name."
        maxLength={500}
        autoComplete="off"
      />
      {!errors.amountCents && !errors.note && <ErrorAlert error={grant.error} />}
    </FormDialog>
  );
}

export function ChangeDialog({ action, onClose }: { action: WorkspaceAction; onClose: () => void }) {
  const update = useUpdateAdminWorkspace();
  const toast = useToast();
  const w = action.workspace;
  const texts =
    action.kind === 'enterprise'
      ? w.enterprise
        ? {
            title: `End enterprise for ${w.name}?`,
            body: 'The workspace goes back to the free plan: its daily API cap follows its wallet again (5,000 calls at a zero balance, 100,000 above).',
            confirm: 'End enterprise',
            done: 'no longer enterprise',
            tone: 'danger' as const,
            body2: { enterprise: false },
          }
        : {
            title: `Make ${w.name} enterprise?`,
            body: 'The plan becomes enterprise: 100,000 API calls a day whatever the balance. Usage is still drawn from the wallet.',
            confirm: 'Make enterprise',
            done: 'is now enterprise',
            tone: 'primary' as const,
            body2: { enterprise: true },
          }
      : w.suspended
        ? {
            title: `Lift the suspension of ${w.name}?`,
            body: 'Its routers take sessions and data-API calls again at once.',
            confirm: 'Unsuspend',
            done: 'is no longer suspended',
            tone: 'primary' as const,
            body2: { suspended: false },
          }
        : {
            title: `Suspend ${w.name}?`,
            body: 'Its live sessions are closed now and its routers refuse new sessions and data-API calls until you lift the suspension. Its members can still sign in and see the dashboard; the wallet keeps its balance.',
            confirm: 'Suspend',
            done: 'is suspended',
            tone: 'danger' as const,
            body2: { suspended: true },
          };
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      title={texts.title}
      description={texts.body}
      confirmLabel={texts.confirm}
      tone={texts.tone}
      onConfirm={() => update.mutateAsync({ id: w.id, ...texts.body2 })}
      onDone={() => toast(`${w.name} ${texts.done}`)}
    />
  );
}
