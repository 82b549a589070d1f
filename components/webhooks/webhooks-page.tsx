'use client';
// Webhooks: the list, add and edit, send a test (its result shown), delete, and the delivery log.
import { useState } from 'react';
import { useActiveWorkspace, useMe } from '@/lib/client/me';
import { useDeleteWebhook, useTestWebhook, useWebhooks, type Webhook, type WebhookTestResult } from '@/lib/client/webhooks';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { ConfirmDialog, Dialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { PlusIcon, WebhookIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';
import { DeliveryLogCard } from './delivery-log-card';
import { WebhookFormDialog } from './webhook-form-dialog';

type DialogState = { kind: 'create' } | { kind: 'edit' | 'delete'; webhook: Webhook } | { kind: 'tested'; webhook: Webhook; result: WebhookTestResult } | null;

function Health({ webhook }: { webhook: Webhook }) {
  const failedLast = webhook.lastFailureAt && (!webhook.lastDeliveredAt || webhook.lastFailureAt > webhook.lastDeliveredAt);
  if (failedLast) {
    return (
      <span className="block text-[13px]">
        <span className="text-red-700">
          Failed <Time value={webhook.lastFailureAt} relative />
        </span>
        <span className="block truncate text-zinc-500" title={webhook.lastFailureReason ?? undefined}>
          {webhook.lastFailureReason}
        </span>
      </span>
    );
  }
  if (webhook.lastDeliveredAt)
    return (
      <span className="block text-[13px] text-zinc-600">
        Delivered <Time value={webhook.lastDeliveredAt} relative />
      </span>
    );
  return <span className="block text-[13px] text-zinc-400">Nothing sent yet</span>;
}

export function WebhooksPage() {
  const { workspace, canManage } = useActiveWorkspace();
  const routers = useMe().data?.routers ?? [];
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const toast = useToast();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const close = () => setDialog(null);
  const routerName = (id: string | null) => (id ? `Router ${routers.find((r) => r.id === id)?.name ?? id}` : 'All routers');
  const logWebhook = webhooks.data?.find((w) => w.id === logOf);

  const sendTest = (webhook: Webhook) => {
    setTesting(webhook.id);
    test.mutate(webhook.id, {
      onSuccess: (result) => setDialog({ kind: 'tested', webhook, result }),
      onError: (error) => toast(`Test not sent: ${(error as Error).message}`),
      onSettled: () => setTesting(null),
    });
  };

  const addButton = (
    <Button variant="primary" size="sm" onClick={() => setDialog({ kind: 'create' })}>
      <PlusIcon />
      Add webhook
    </Button>
  );

  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Webhooks"
        description="Notify your systems when sessions end or fail. Each event is a JSON POST, retried after 0.5, 2 and 8 seconds until your endpoint answers 2xx within 5 seconds."
      />
      <div className="space-y-6">
        <Card aria-label="Webhooks">
          <CardHeader title="Endpoints" description="Sent for every router whose Webhooks switch is on." actions={canManage ? addButton : undefined} />
          <DataTable<Webhook>
            label="Webhooks"
            query={webhooks}
            rows={webhooks.data}
            rowKey={(w) => w.id}
            rowClassName={(w) => (w.active ? undefined : 'text-zinc-400')}
            empty={
              <EmptyState
                icon={<WebhookIcon />}
                title="No webhooks yet"
                description="Add an endpoint to hear about ended and failed sessions as they happen."
                action={canManage ? addButton : undefined}
              />
            }
            columns={[
              {
                key: 'label',
                header: 'Endpoint',
                cell: (w) => (
                  <div className="max-w-64 min-w-0">
                    <div className="truncate font-medium text-zinc-900">{w.label}</div>
                    <code className="block truncate font-mono text-[12px] text-zinc-500" title={w.url}>
                      {w.url}
                    </code>
                  </div>
                ),
              },
              {
                key: 'sends',
                header: 'Sends',
                cell: (w) => (
                  <div className="space-y-0.5 text-[13px]">
                    {w.events.length === 0 ? (
                      <Badge>All events</Badge>
                    ) : (
                      <div title={w.events.join(', ')}>{w.events.length === 1 ? w.events[0] : `${w.events.length} events`}</div>
                    )}
                    <div className="text-zinc-500">{routerName(w.routerInstanceId)}</div>
                  </div>
                ),
              },
              {
                key: 'status',
                header: 'Status',
                cell: (w) => (
                  <div className="max-w-44 space-y-0.5">
                    {w.active ? (
                      <Badge tone="success" dot>
                        Active
                      </Badge>
                    ) : (
                      <Badge>Paused</Badge>
                    )}
                    <Health webhook={w} />
                  </div>
                ),
              },
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                className: 'text-right',
                cell: (w) => (
                  <div className="flex justify-end gap-1">
                    {canManage && (
                      <Button size="sm" variant="ghost" aria-label={`Send a test to ${w.label}`} loading={testing === w.id} onClick={() => sendTest(w)}>
                        Send test
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Deliveries of ${w.label}`}
                      aria-pressed={logOf === w.id}
                      onClick={() => setLogOf(logOf === w.id ? null : w.id)}
                    >
                      Deliveries
                    </Button>
                    {canManage && (
                      <>
                        <Button size="sm" variant="ghost" aria-label={`Edit ${w.label}`} onClick={() => setDialog({ kind: 'edit', webhook: w })}>
                          Edit
                        </Button>
                        <Button size="sm" variant="danger-ghost" aria-label={`Delete ${w.label}`} onClick={() => setDialog({ kind: 'delete', webhook: w })}>
                          Delete
                        </Button>
                      </>
                    )}
                  </div>
                ),
              },
            ]}
          />
        </Card>
        {logWebhook && <DeliveryLogCard webhook={logWebhook} onClose={() => setLogOf(null)} />}
      </div>

      <WebhookFormDialog
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        webhook={dialog?.kind === 'edit' ? dialog.webhook : undefined}
        onClose={close}
        onSaved={(saved, created) => {
          close();
          toast(created ? `Webhook “${saved.label}” added` : 'Webhook saved');
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onClose={close}
        title={`Delete “${dialog?.kind === 'delete' ? dialog.webhook.label : ''}”?`}
        description="Nothing more is sent to this endpoint, pending retries included, and its delivery log is removed."
        confirmLabel="Delete webhook"
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await remove.mutateAsync(dialog.webhook.id);
          if (logOf === dialog.webhook.id) setLogOf(null);
        }}
        onDone={() => toast('Webhook deleted')}
      />
      {dialog?.kind === 'tested' && (
        <TestResultDialog
          webhook={dialog.webhook}
          result={dialog.result}
          onClose={close}
          onShowLog={() => {
            setLogOf(dialog.webhook.id);
            close();
          }}
        />
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
