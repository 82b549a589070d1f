'use client';
// The columns of the webhooks table (components/webhooks/webhooks-page.tsx): the endpoint, what it
// sends and for which router, its status and last delivery, and the row's actions.
import type { Webhook } from '@/lib/client/webhooks';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import type { Column } from '../ui/data-table';
import { Time } from '../ui/time';

/** What the columns need from the page: who may manage, router names, and the row actions. */
export interface WebhookColumnsOptions {
  canManage: boolean;
  routerName: (id: string | null) => string;
  /** The webhook whose test is on its way, and the one whose delivery log is open. */
  testing: string | null;
  logOf: string | null;
  onTest: (webhook: Webhook) => void;
  onToggleLog: (webhook: Webhook) => void;
  onEdit: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
}

export function webhookColumns(options: WebhookColumnsOptions): Column<Webhook>[] {
  return [
    { key: 'label', header: 'Endpoint', cell: (w) => <Endpoint webhook={w} /> },
    { key: 'sends', header: 'Sends', cell: (w) => <Sends webhook={w} routerName={options.routerName} /> },
    { key: 'status', header: 'Status', cell: (w) => <Status webhook={w} /> },
    { key: 'actions', header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (w) => <RowActions webhook={w} {...options} /> },
  ];
}

function Endpoint({ webhook: w }: { webhook: Webhook }) {
  return (
    <div className="max-w-64 min-w-0">
      <div className="truncate font-medium text-zinc-900">{w.label}</div>
      <code className="block truncate font-mono text-[12px] text-zinc-500" title={w.url}>
        {w.url}
      </code>
    </div>
  );
}

function Sends({ webhook: w, routerName }: { webhook: Webhook; routerName: (id: string | null) => string }) {
  return (
    <div className="space-y-0.5 text-[13px]">
      {w.events.length === 0 ? (
        <Badge>All events</Badge>
      ) : (
        <div title={w.events.join(', ')}>{w.events.length === 1 ? w.events[0] : `${w.events.length} events`}</div>
      )}
      <div className="text-zinc-500">{routerName(w.routerInstanceId)}</div>
    </div>
  );
}

function Status({ webhook: w }: { webhook: Webhook }) {
  return (
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
  );
}

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

function RowActions({ webhook: w, canManage, testing, logOf, onTest, onToggleLog, onEdit, onDelete }: WebhookColumnsOptions & { webhook: Webhook }) {
  return (
    <div className="flex justify-end gap-1">
      {canManage && (
        <Button size="sm" variant="ghost" aria-label={`Send a test to ${w.label}`} loading={testing === w.id} onClick={() => onTest(w)}>
          Send test
        </Button>
      )}
      <Button size="sm" variant="ghost" aria-label={`Deliveries of ${w.label}`} aria-pressed={logOf === w.id} onClick={() => onToggleLog(w)}>
        Deliveries
      </Button>
      {canManage && (
        <>
          <Button size="sm" variant="ghost" aria-label={`Edit ${w.label}`} onClick={() => onEdit(w)}>
            Edit
          </Button>
          <Button size="sm" variant="danger-ghost" aria-label={`Delete ${w.label}`} onClick={() => onDelete(w)}>
            Delete
          </Button>
        </>
      )}
    </div>
  );
}
