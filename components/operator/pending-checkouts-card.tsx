'use client';
// Test-mode top-ups waiting for the operator (the installation has no STRIPE_SECRET_KEY): each with
// its workspace, amount and a link to its checkout page, where the operator confirms or cancels it.
// Shown only while there is one.
import { usePendingTestCheckouts, type PendingTestCheckout } from '@/lib/client/admin';
import { formatCents } from '@/lib/client/money';
import { ButtonLink } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { Time } from '../ui/time';

export function PendingCheckoutsCard() {
  const pending = usePendingTestCheckouts();
  const items = pending.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Card className="mb-6">
      <CardHeader
        title="Test payments to confirm"
        description={`${items.length} top-up${items.length === 1 ? '' : 's'} in test mode waiting for you: open one to confirm or cancel it.`}
      />
      <DataTable<PendingTestCheckout>
        label="Test payments to confirm"
        query={pending}
        rows={items}
        rowKey={(c) => c.id}
        empty={null}
        columns={[
          { key: 'workspace', header: 'Workspace', cell: (c) => <span className="font-medium text-zinc-900">{c.workspaceName}</span> },
          { key: 'credit', header: 'Credit', className: 'text-right', cell: (c) => formatCents(c.creditCents) },
          { key: 'started', header: 'Started', cell: (c) => <Time value={c.createdAt} relative /> },
          {
            key: 'open',
            header: <span className="sr-only">Actions</span>,
            className: 'text-right',
            cell: (c) => (
              <ButtonLink href={c.path} size="sm" variant="secondary" aria-label={`Open the test payment of ${c.workspaceName}`}>
                Open
              </ButtonLink>
            ),
          },
        ]}
      />
    </Card>
  );
}
