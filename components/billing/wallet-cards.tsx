'use client';
// The top of the Billing page: the wallet's balance and account state (with the top-up), the
// month's sessions against the free count, and the prices drawn from the wallet.
import { useState, type ReactNode } from 'react';
import type { BillingSummary } from '@/lib/client/billing';
import { formatCents } from '@/lib/client/money';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { PlusIcon } from '../ui/icons';
import { Money } from '../ui/money';
import { formatDate } from '../ui/time';
import { accountStates } from './labels';
import { TopUpDialog } from './top-up-dialog';

function Panel({ label, children, className, ...props }: { label: string; children: ReactNode; className?: string } & React.HTMLAttributes<HTMLElement>) {
  return (
    <section aria-label={label} className={cn('flex flex-col rounded-xl border border-zinc-200 bg-white p-5 shadow-xs', className)} {...props}>
      <h2 className="text-[13px] font-medium text-zinc-500">{label}</h2>
      {children}
    </section>
  );
}

export function WalletPanel({ summary, canManage }: { summary: BillingSummary; canManage: boolean }) {
  const [open, setOpen] = useState(false);
  const state = accountStates[summary.accountState];
  return (
    <Panel label="Wallet balance" className="lg:col-span-1">
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
        <Money millicents={summary.wallet.balanceMillicents} data-testid="wallet-balance" className="text-3xl font-semibold tracking-tight text-zinc-900" />
        <Badge tone={state.tone} dot>
          {state.label}
        </Badge>
        {summary.suspended && <Badge tone="danger">Suspended</Badge>}
      </div>
      <p className="mt-2 text-[13px] text-zinc-500">{state.note}</p>
      <div className="mt-auto pt-4">
        <Button variant="primary" onClick={() => setOpen(true)} disabled={!canManage} aria-describedby={canManage ? undefined : 'top-up-reason'}>
          <PlusIcon />
          Top up
        </Button>
        {!canManage && (
          <p id="top-up-reason" className="mt-2 text-[13px] text-zinc-500">
            Only the workspace&apos;s owners and admins can add money to the wallet. Ask one of them to top up.
          </p>
        )}
      </div>
      {open && <TopUpDialog wallet={summary.wallet} onClose={() => setOpen(false)} />}
    </Panel>
  );
}

export function SessionsPanel({ summary }: { summary: BillingSummary }) {
  const { usedCount, includedCount, overageRateCents } = summary.sessions;
  const pct = includedCount > 0 ? Math.min(1, usedCount / includedCount) : 1;
  const over = Math.max(0, usedCount - includedCount);
  return (
    <Panel label="Sessions this month">
      <div className="mt-2 flex items-baseline gap-1.5 tabular-nums">
        <span className="text-3xl font-semibold tracking-tight text-zinc-900">{usedCount.toLocaleString('en')}</span>
        <span className="text-sm text-zinc-500">of {includedCount.toLocaleString('en')} included</span>
      </div>
      <div
        role="progressbar"
        aria-label="Included sessions used"
        aria-valuemin={0}
        aria-valuemax={includedCount}
        aria-valuenow={Math.min(usedCount, includedCount)}
        aria-valuetext={`${usedCount.toLocaleString('en')} of ${includedCount.toLocaleString('en')}`}
        className="mt-3 h-2 overflow-hidden rounded-full bg-zinc-100"
      >
        <div
          className={cn('h-full rounded-full transition-all', pct >= 1 ? 'bg-amber-500' : pct >= 0.8 ? 'bg-amber-400' : 'bg-accent-500')}
          style={{ width: `${Math.max(pct * 100, usedCount > 0 ? 1 : 0)}%` }}
        />
      </div>
      <p className="mt-2 text-[13px] text-zinc-500">
        {over > 0
          ? `${over.toLocaleString('en')} above the free count, ${formatCents(overageRateCents)} each from the wallet.`
          : `Connect sessions and data-API calls; above the free count each costs ${formatCents(overageRateCents)} from the wallet.`}{' '}
        The count starts again on {formatDate(summary.period.endsAt)}.
      </p>
    </Panel>
  );
}

export function RatesPanel({ summary }: { summary: BillingSummary }) {
  const state = accountStates[summary.accountState];
  const rows = [
    { label: 'Session above the free count', value: formatCents(summary.sessions.overageRateCents) },
    { label: 'Recording, per minute', value: formatCents(summary.rates.recordingPerMinuteCents) },
    { label: 'Traces, per 1,000 events', value: formatCents(summary.rates.observabilityPer1kEventsCents) },
    { label: 'API calls a day', value: summary.dailyCap ? summary.dailyCap.toLocaleString('en') : state.cap },
  ];
  return (
    <Panel label="Prices and limits">
      <dl className="mt-2 space-y-1.5 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex items-baseline justify-between gap-3">
            <dt className="text-zinc-500">{row.label}</dt>
            <dd className="font-medium text-zinc-900 tabular-nums">{row.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-auto pt-3 text-[13px] text-zinc-500">
        Recording and traces need a positive balance; a session stops recording when the wallet runs dry.
      </p>
    </Panel>
  );
}
