'use client';
// Webhooks: the list, add and edit, send a test (its result shown), delete, and the delivery log.
import { useState } from 'react';
import { useActiveWorkspace, useMe } from '@/lib/client/me';
import { useDeleteWebhook, useTestWebhook, useWebhooks, type Webhook } from '@/lib/client/webhooks';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { PlusIcon, WebhookIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { useToast } from '../ui/toast';
import { DeliveryLogCard } from './delivery-log-card';
import { webhookColumns } from './webhook-columns';
import { WebhookDialogs, type DialogState } from './webhook-dialogs';

/** The page's state: the open dialog, the open delivery log, the test on its way; and its actions. */
function useWebhooksPage() {
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
  const saved = (webhook: Webhook, created: boolean) => {
    close();
    toast(created ? `Webhook “${webhook.label}” added` : 'Webhook saved');
  };
  const confirmDelete = async () => {
    if (dialog?.kind !== 'delete') return;
    await remove.mutateAsync(dialog.webhook.id);
    if (logOf === dialog.webhook.id) setLogOf(null);
  };
  const showLog = (webhook: Webhook) => {
    setLogOf(webhook.id);
    close();
  };
  const columns = webhookColumns({
    canManage,
    routerName,
    testing,
    logOf,
    onTest: sendTest,
    onToggleLog: (w) => setLogOf(logOf === w.id ? null : w.id),
    onEdit: (w) => setDialog({ kind: 'edit', webhook: w }),
    onDelete: (w) => setDialog({ kind: 'delete', webhook: w }),
  });
  return { workspace, canManage, webhooks, columns, dialog, setDialog, close, logWebhook, setLogOf, saved, confirmDelete, showLog, toast };
}

export function WebhooksPage() {
  const { workspace, canManage, webhooks, columns, dialog, setDialog, close, logWebhook, setLogOf, saved, confirmDelete, showLog, toast } = useWebhooksPage();

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
            columns={columns}
          />
        </Card>
        {logWebhook && <DeliveryLogCard webhook={logWebhook} onClose={() => setLogOf(null)} />}
      </div>
      <WebhookDialogs
        dialog={dialog}
        onClose={close}
        onSaved={saved}
        onConfirmDelete={confirmDelete}
        onDeleted={() => toast('Webhook deleted')}
        onShowLog={showLog}
      />
    </>
  );
}
