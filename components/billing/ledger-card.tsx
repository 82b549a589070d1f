'use client';
// The wallet's daily ledger: per UTC day and kind, how many entries and their sum (charges
// negative, top-ups and grants positive), newest first.
import { useId, useState } from 'react';
import { useBillingLedger, type LedgerKind, type LedgerRow } from '@/lib/client/billing';
import { useMe } from '@/lib/client/me';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { BarChartIcon } from '../ui/icons';
import { Select } from '../ui/input';
import { Money } from '../ui/money';
import { ledgerKindLabels, visibleLedgerKinds } from './labels';

const dayFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const credits = new Set<LedgerKind>(['topup', 'grant']);

/** One row per UTC day and kind; credits in green, refunds in amber. */
const LEDGER_COLUMNS: Column<LedgerRow>[] = [
  {
    key: 'day',
    header: 'Day (UTC)',
    cell: (r) => <span className="whitespace-nowrap text-zinc-900">{dayFormat.format(new Date(`${r.day}T00:00:00Z`))}</span>,
  },
  {
    key: 'kind',
    header: 'Kind',
    cell: (r) => <Badge tone={credits.has(r.kind) ? 'success' : r.kind === 'refund' ? 'warning' : 'neutral'}>{ledgerKindLabels[r.kind] ?? r.kind}</Badge>,
  },
  { key: 'count', header: 'Entries', className: 'text-right tabular-nums', cell: (r) => r.count.toLocaleString('en') },
  {
    key: 'total',
    header: 'Amount',
    className: 'text-right',
    cell: (r) => <Money millicents={r.totalMillicents} plus className={r.totalMillicents > 0 ? 'font-medium text-emerald-700' : 'font-medium text-zinc-900'} />,
  },
];

export function LedgerCard() {
  const [kind, setKind] = useState<LedgerKind | 'all'>('all');
  const ledger = useBillingLedger(kind);
  const selectId = useId();
  const kinds = visibleLedgerKinds(useMe().data?.isAdmin ?? false);
  return (
    <Card aria-label="Ledger" className="mt-6">
      <CardHeader
        title="Ledger"
        description="Every movement of the wallet, summed per UTC day and kind, over the last 12 months."
        actions={<KindFilter id={selectId} kind={kind} kinds={kinds} onChange={setKind} />}
      />
      <DataTable<LedgerRow>
        label="Ledger"
        query={ledger}
        rows={ledger.data}
        rowKey={(r) => `${r.day}:${r.kind}`}
        empty={<LedgerEmpty kind={kind} />}
        columns={LEDGER_COLUMNS}
      />
    </Card>
  );
}

/** The "Kind" select above the table: all kinds, or one of those this viewer may see. */
function KindFilter({
  id,
  kind,
  kinds,
  onChange,
}: {
  id: string;
  kind: LedgerKind | 'all';
  kinds: LedgerKind[];
  onChange: (kind: LedgerKind | 'all') => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-[13px] text-zinc-500">
        Kind
      </label>
      <Select id={id} value={kind} onChange={(e) => onChange(e.target.value as LedgerKind | 'all')} className="h-8 w-44">
        <option value="all">All kinds</option>
        {kinds.map((k) => (
          <option key={k} value={k}>
            {ledgerKindLabels[k]}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** The table's empty state: nothing at all yet, or nothing of the chosen kind. */
function LedgerEmpty({ kind }: { kind: LedgerKind | 'all' }) {
  return (
    <EmptyState
      icon={<BarChartIcon />}
      title={kind === 'all' ? 'Nothing in the ledger yet' : `No entries of kind ${ledgerKindLabels[kind]}`}
      description={
        kind === 'all'
          ? 'Top-ups, credit grants and charges for sessions above the free count, recording and traces appear here by day.'
          : 'Choose another kind, or all kinds.'
      }
    />
  );
}
