'use client';
// The delivery log of one webhook: every attempt, newest first, with what the receiver answered
// (or why there was no answer), how long it took, and where the delivery stands now.
import { useWebhookDeliveries, type DeliveryAttempt, type Webhook } from '@/lib/client/webhooks';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon, RefreshIcon, XIcon } from '../ui/icons';
import { formatDateTime } from '../ui/time';

const statusBadge: Record<string, { tone: 'success' | 'warning' | 'danger' | 'neutral'; label: string }> = {
  delivered: { tone: 'success', label: 'Delivered' },
  pending: { tone: 'warning', label: 'Retrying' },
  failed: { tone: 'danger', label: 'Gave up' },
  cancelled: { tone: 'neutral', label: 'Cancelled' },
};

function Result({ attempt }: { attempt: DeliveryAttempt }) {
  if (attempt.ok) return <Badge tone="success">{attempt.statusCode}</Badge>;
  return (
    <span className="flex items-center gap-2">
      <Badge tone="danger">{attempt.statusCode ?? 'No answer'}</Badge>
      <span className="text-[13px] text-zinc-600">{attempt.error}</span>
    </span>
  );
}

const DELIVERY_COLUMNS: Column<DeliveryAttempt>[] = [
  {
    key: 'time',
    header: 'Time',
    cell: (a) => (
      <time dateTime={a.attemptedAt} className="whitespace-nowrap" suppressHydrationWarning>
        {formatDateTime(a.attemptedAt)}
      </time>
    ),
  },
  { key: 'event', header: 'Event', cell: (a) => <code className="font-mono text-[12px] text-zinc-800">{a.event}</code> },
  { key: 'attempt', header: 'Attempt', className: 'text-right', cell: (a) => a.attempt },
  { key: 'result', header: 'Result', cell: (a) => <Result attempt={a} /> },
  { key: 'duration', header: 'Duration', className: 'text-right', cell: (a) => `${a.durationMs.toLocaleString('en')} ms` },
  { key: 'delivery', header: 'Delivery', cell: (a) => <DeliveryStatus attempt={a} /> },
];

/** Where the attempt's delivery stands now, with the start of its delivery id. */
function DeliveryStatus({ attempt: a }: { attempt: DeliveryAttempt }) {
  // A test is sent once: it fails, it does not give up.
  const s =
    a.deliveryStatus === 'failed' && a.event === 'webhook.test'
      ? { tone: 'danger' as const, label: 'Failed' }
      : (statusBadge[a.deliveryStatus] ?? { tone: 'neutral' as const, label: a.deliveryStatus });
  return (
    <span className="flex items-center gap-2" title={a.deliveryId}>
      <Badge tone={s.tone}>{s.label}</Badge>
      <code className="hidden font-mono text-[11px] text-zinc-400 lg:inline">{a.deliveryId.slice(0, 12)}…</code>
    </span>
  );
}

export function DeliveryLogCard({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const attempts = useWebhookDeliveries(webhook.id);
  return (
    <Card aria-label="Delivery log">
      <CardHeader
        title={`Delivery log · ${webhook.label}`}
        description="The last 50 attempts. Retries of one delivery share its delivery id (the X-Webhook-Delivery-Id header), so your endpoint can drop duplicates."
        actions={
          <>
            <Button size="sm" onClick={() => void attempts.refetch()} loading={attempts.isFetching}>
              <RefreshIcon />
              Refresh
            </Button>
            <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close the delivery log">
              <XIcon />
            </Button>
          </>
        }
      />
      <DataTable<DeliveryAttempt>
        label="Delivery attempts"
        query={attempts}
        rows={attempts.data}
        rowKey={(a) => a.id}
        empty={
          <EmptyState icon={<ActivityIcon />} title="Nothing delivered yet" description="Attempts appear here when a session ends, or when you send a test." />
        }
        columns={DELIVERY_COLUMNS}
      />
    </Card>
  );
}
