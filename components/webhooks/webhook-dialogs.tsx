'use client';
// The dialogs of the webhooks page (components/webhooks/webhooks-page.tsx): add and edit, confirm a
// delete, and the result of a test. Which one is open is the page's state; this file only shows it.
import type { Webhook, WebhookTestResult } from '@/lib/client/webhooks';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog, Dialog } from '../ui/dialog';
import { WebhookFormDialog } from './webhook-form-dialog';

export type DialogState =
  { kind: 'create' } | { kind: 'edit' | 'delete'; webhook: Webhook } | { kind: 'tested'; webhook: Webhook; result: WebhookTestResult } | null;

export function WebhookDialogs({
  dialog,
  onClose,
  onSaved,
  onConfirmDelete,
  onDeleted,
  onShowLog,
}: {
  dialog: DialogState;
  onClose: () => void;
  onSaved: (webhook: Webhook, created: boolean) => void;
  onConfirmDelete: () => Promise<void>;
  onDeleted: () => void;
  onShowLog: (webhook: Webhook) => void;
}) {
  return (
    <>
      <WebhookFormDialog
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        webhook={dialog?.kind === 'edit' ? dialog.webhook : undefined}
        onClose={onClose}
        onSaved={onSaved}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onClose={onClose}
        title={`Delete “${dialog?.kind === 'delete' ? dialog.webhook.label : ''}”?`}
        description="Nothing more is sent to this endpoint, pending retries included, and its delivery log is removed."
        confirmLabel="Delete webhook"
        onConfirm={onConfirmDelete}
        onDone={onDeleted}
      />
      {dialog?.kind === 'tested' && (
        <TestResultDialog webhook={dialog.webhook} result={dialog.result} onClose={onClose} onShowLog={() => onShowLog(dialog.webhook)} />
      )}
    </>
  );
}

function TestResultDialog({
  webhook,
  result,
  onClose,
  onShowLog,
}: {
  webhook: Webhook;
  result: WebhookTestResult;
  onClose: () => void;
  onShowLog: () => void;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Test sent to “${webhook.label}”`}
      footer={
        <>
          <Button onClick={onShowLog}>Open the delivery log</Button>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </>
      }
    >
      {result.delivered ? (
        <Alert tone="success" title="Delivered">
          Your endpoint answered HTTP {result.statusCode} in {result.durationMs.toLocaleString('en')} ms.
        </Alert>
      ) : (
        <Alert tone="danger" title="Not delivered">
          {result.statusCode ? `Your endpoint answered HTTP ${result.statusCode}` : `No answer: ${result.error}`} after {result.durationMs.toLocaleString('en')}{' '}
          ms. Tests are sent once, without retries.
        </Alert>
      )}
      <p className="text-[13px] text-zinc-500">
        The body had <code className="font-mono text-[12px]">&quot;event&quot;: &quot;webhook.test&quot;</code> and delivery id{' '}
        <code className="font-mono text-[12px]">{result.deliveryId}</code>.
      </p>
    </Dialog>
  );
}
