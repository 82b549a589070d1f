'use client';
// Usage by day over 7, 30 or 90 days (sessions, data moved, or the amount drawn from the wallet)
// and what the wallet's money went to over the same days, by kind.
import { useState } from 'react';
import { useBillingUsage, type BillingUsage, type LedgerKind, type UsageDay } from '@/lib/client/billing';
import { BREAKDOWN_FIELD } from '@/lib/billing/breakdown';
import { useMe } from '@/lib/client/me';
import { formatMillicents, formatMillicentsExact, millicentsTitle } from '@/lib/client/money';
import { Card, CardHeader } from '../ui/card';
import { axisTop, Gridlines } from '../ui/chart-axis';
import { ErrorState } from '../ui/empty-state';
import { Money } from '../ui/money';
import { Skeleton } from '../ui/skeleton';
import { formatBytes } from '../sessions/format';
import { Choice } from './choice';
import { ledgerKindLabels, visibleLedgerKinds } from './labels';

type Measure = 'sessions' | 'bytes' | 'billed';

const measures: Record<Measure, { label: string; value: (d: UsageDay) => number; format: (v: number) => string; tick: (v: number) => string }> = {
  sessions: {
    label: 'Sessions',
    value: (d) => d.sessions,
    format: (v) => `${v.toLocaleString('en')} session${v === 1 ? '' : 's'}`,
    tick: (v) => v.toLocaleString('en'),
  },
  bytes: { label: 'Data', value: (d) => d.totalBytes, format: formatBytes, tick: formatBytes },
  billed: { label: 'Amount drawn', value: (d) => Number(d.billedMillicents), format: millicentsTitle, tick: formatMillicentsExact },
};

export function UsageCard() {
  const [days, setDays] = useState(30);
  const [measure, setMeasure] = useState<Measure>('sessions');
  const usage = useBillingUsage(days);
  const isOperator = useMe().data?.isAdmin ?? false;
  const data = usage.data;
  return (
    <Card aria-label="Usage" className="mt-6">
      <CardHeader
        title="Usage"
        description={
          data
            ? `${data.totals.sessions.toLocaleString('en')} session${data.totals.sessions === 1 ? '' : 's'}, ${formatBytes(Number(data.totals.bytes))} moved and ${formatMillicents(Number(data.totals.billedMillicents))} drawn from the wallet in the last ${data.days} days (UTC).`
            : `The last ${days} days (UTC).`
        }
        actions={
          <>
            <Choice
              label="Measure"
              value={measure}
              onChange={setMeasure}
              options={(Object.keys(measures) as Measure[]).map((m) => ({ value: m, label: measures[m].label }))}
            />
            <Choice label="Period" value={days} onChange={setDays} options={[7, 30, 90].map((d) => ({ value: d, label: `${d} days` }))} />
          </>
        }
      />
      <div className="grid gap-6 px-5 py-4 lg:grid-cols-[1fr_16rem]">
        {usage.error && !data ? (
          <ErrorState error={usage.error} onRetry={() => void usage.refetch()} className="py-6 lg:col-span-2" />
        ) : !data ? (
          <>
            <Skeleton className="h-[170px] w-full" />
            <Skeleton className="h-[170px] w-full" />
          </>
        ) : (
          <>
            <Bars series={data.series} measure={measure} />
            <Breakdown breakdown={data.breakdown} isOperator={isOperator} />
          </>
        )}
      </div>
    </Card>
  );
}

const W = 700;
const H = 170;
const PAD_TOP = 12;
const PAD_BOTTOM = 22;
const PAD_LEFT = 56;
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The chosen measure per day as bars under a round axis; the last day is labelled Today. */
function Bars({ series, measure }: { series: UsageDay[]; measure: Measure }) {
  const m = measures[measure];
  const values = series.map((d) => Math.max(0, m.value(d)));
  const max = Math.max(...values, 0);
  const top = axisTop(max);
  const plotH = H - PAD_TOP - PAD_BOTTOM;
  const slot = (W - PAD_LEFT) / Math.max(1, series.length);
  const barW = Math.max(2, Math.min(24, slot * 0.62));
  const y = (value: number) => PAD_TOP + plotH - (value / top) * plotH;
  const labelEvery = Math.ceil(series.length / 10);
  const empty = max === 0;
  return (
    <div className="relative min-w-0">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={`${m.label} per day${empty ? ': none in this period' : ''}`}>
        <Gridlines left={PAD_LEFT} right={W} top={top} y={y} label={(tick) => (empty && tick > 0 ? '' : m.tick(tick))} />
        {series.map((d, i) => {
          const value = values[i] ?? 0;
          const x = PAD_LEFT + i * slot + (slot - barW) / 2;
          const last = i === series.length - 1;
          return (
            <g key={d.day}>
              <title>{`${dayLabel.format(new Date(`${d.day}T00:00:00Z`))}: ${m.format(value)}${measure === 'sessions' && d.errored ? ` (${d.errored} errored)` : ''}`}</title>
              <rect x={PAD_LEFT + i * slot} y={PAD_TOP} width={slot} height={plotH} fill="transparent" />
              <Bar x={x} width={barW} value={value} y={y} className={measure === 'billed' ? 'fill-amber-500' : 'fill-accent-500'} />
              {(series.length - 1 - i) % labelEvery === 0 && (
                <text
                  x={last ? W : x + barW / 2}
                  y={H - 6}
                  textAnchor={last ? 'end' : 'middle'}
                  className={last ? 'fill-zinc-700 text-[10px] font-medium' : 'fill-zinc-400 text-[10px]'}
                >
                  {last ? 'Today' : dayLabel.format(new Date(`${d.day}T00:00:00Z`))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {empty && (
        <p className="pointer-events-none absolute inset-x-0 top-1/3 text-center text-[13px] text-zinc-400">No {m.label.toLowerCase()} in this period</p>
      )}
    </div>
  );
}

/** A day's bar from the axis; a thin grey line when its value is zero. */
function Bar({ x, width, value, y, className }: { x: number; width: number; value: number; y: (v: number) => number; className: string }) {
  return value > 0 ? (
    <rect x={x} y={y(value)} width={width} height={Math.max(1.5, y(0) - y(value))} rx={2} className={className} />
  ) : (
    <rect x={x} y={y(0) - 1.5} width={width} height={1.5} className="fill-zinc-200" />
  );
}

const creditKinds: ReadonlySet<LedgerKind> = new Set(['topup', 'grant', 'refund']);

function Breakdown({ breakdown, isOperator }: { breakdown: BillingUsage['breakdown']; isOperator: boolean }) {
  // Charges first (ledgerKinds' order), each with a bar for its share of what was spent; then money in and refunds.
  const rows = visibleLedgerKinds(isOperator).map((kind) => ({ kind, amount: Number(breakdown[BREAKDOWN_FIELD[kind]] ?? 0), charge: !creditKinds.has(kind) }));
  const spent = rows.reduce((sum, r) => (r.charge ? sum + Math.abs(r.amount) : sum), 0);
  const firstCredit = rows.findIndex((r) => !r.charge);
  return (
    <div aria-label="By kind" role="group">
      <h3 className="text-[13px] font-medium text-zinc-500">By kind</h3>
      <ul className="mt-2 space-y-2 text-sm">
        {rows.map(({ kind, amount, charge }, i) => (
          <li key={kind} className={i === firstCredit ? 'border-t border-zinc-100 pt-2' : undefined}>
            <div className="flex items-baseline justify-between gap-3">
              <span className={amount === 0 ? 'text-zinc-400' : 'text-zinc-700'}>{ledgerKindLabels[kind]}</span>
              <Money
                millicents={amount}
                plus
                className={amount === 0 ? 'text-zinc-400' : amount > 0 ? 'font-medium text-emerald-700' : 'font-medium text-zinc-900'}
              />
            </div>
            {charge && spent > 0 && amount !== 0 && (
              <div className="mt-1 h-1 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
                <div className="h-full rounded-full bg-amber-400" style={{ width: `${(Math.abs(amount) / spent) * 100}%` }} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
