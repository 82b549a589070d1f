'use client';
// The operator's audit log under the workspaces: every grant, suspension, enterprise mark and
// change of operator rights, who did it (an operator, or the command line) and when.
import { useOperatorActions, type OperatorAction } from '@/lib/client/admin';
import { formatCents } from '@/lib/client/money';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { ActivityIcon } from '../ui/icons';
import { Time } from '../ui/time';

const LABELS: Record<string, string> = {
  credits_granted: 'Granted credits',
  workspace_suspended: 'Suspended',
  workspace_unsuspended: 'Lifted a suspension',
  workspace_enterprise: 'Made enterprise',
  workspace_not_enterprise: 'Ended enterprise',
  operator_claimed: 'Claimed the operator rights',
  operator_granted: 'Made operator',
  operator_revoked: 'Took the operator rights',
  password_reset_link: 'Made a password reset link',
};

/** What was done, in words: the action, and for a grant its amount and note. */
function describe(a: OperatorAction): string {
  const label = LABELS[a.action] ?? a.action;
  if (a.action !== 'credits_granted') return label;
  const note = typeof a.detail.note === 'string' && a.detail.note ? ` (“${a.detail.note}”)` : '';
  return `${label}: ${formatCents(Number(a.detail.amountCents))}${note}`;
}

export function OperatorActionsCard() {
  const actions = useOperatorActions();
  const data = actions.data;
  return (
    <Card>
      <CardHeader
        title="Operator activity"
        description={
          data
            ? `${data.total.toLocaleString('en')} action${data.total === 1 ? '' : 's'}${data.total > data.items.length ? `, newest ${data.items.length} shown` : ''}.`
            : 'Newest first.'
        }
      />
      <DataTable<OperatorAction>
        label="Operator activity"
        query={actions}
        rows={data?.items}
        rowKey={(a) => a.id}
        empty={
          <EmptyState
            icon={<ActivityIcon />}
            title="Nothing done yet"
            description="Grants, suspensions, enterprise marks and changes of operator rights are listed here."
          />
        }
        columns={[
          { key: 'what', header: 'Action', cell: (a) => <span className="font-medium text-zinc-900">{describe(a)}</span> },
          { key: 'target', header: 'Of', cell: (a) => a.target ?? <span className="text-zinc-400">—</span> },
          { key: 'by', header: 'By', cell: (a) => a.actor?.email ?? <span className="text-zinc-500">the command line</span> },
          { key: 'when', header: 'When', cell: (a) => <Time value={a.createdAt} relative /> },
        ]}
      />
    </Card>
  );
}
