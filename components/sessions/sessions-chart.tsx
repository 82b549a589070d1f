'use client';
// Sessions started per day over the last two weeks, errored ones stacked on top in red. Counted
// from the list endpoint (there is no aggregate endpoint yet), so it says when it is partial.
import { useSessionsPerDay, type SessionFilters } from '@/lib/client/sessions';
import { Card, CardHeader } from '../ui/card';
import { axisTop, Gridlines } from '../ui/chart-axis';
import { ErrorState } from '../ui/empty-state';
import { Skeleton } from '../ui/skeleton';

const DAYS = 14;
const W = 700;
const H = 150;
const PAD_TOP = 14;
const PAD_BOTTOM = 22;
const PAD_LEFT = 28;

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export function SessionsChart({ filters }: { filters: Pick<SessionFilters, 'kind' | 'routerInstanceId' | 'provider'> }) {
  const perDay = useSessionsPerDay(filters, DAYS);
  const data = perDay.data;
  const total = data?.days.reduce((sum, d) => sum + d.ok + d.errored, 0) ?? 0;
  const errored = data?.days.reduce((sum, d) => sum + d.errored, 0) ?? 0;

  return (
    <Card aria-label="Sessions per day">
      <CardHeader
        title="Sessions per day"
        description={
          data
            ? `${total.toLocaleString('en')} session${total === 1 ? '' : 's'} in the last ${DAYS} days${errored ? `, ${errored} errored` : ''}${data.partial ? ` (counted from the newest ${data.read.toLocaleString('en')} of ${data.total.toLocaleString('en')})` : ''}.`
            : `The last ${DAYS} days.`
        }
        actions={
          <div className="flex items-center gap-3 text-[12px] text-zinc-500" aria-hidden="true">
            <span className="flex items-center gap-1.5">
              <span className="size-2.5 rounded-sm bg-accent-500" />
              Ended or active
            </span>
            <span className="flex items-center gap-1.5">
              <span className="size-2.5 rounded-sm bg-red-400" />
              Errored
            </span>
          </div>
        }
      />
      <div className="px-5 py-4">
        {perDay.error && !data ? (
          <ErrorState error={perDay.error} onRetry={() => void perDay.refetch()} className="py-6" />
        ) : !data ? (
          <Skeleton className="h-[150px] w-full" />
        ) : (
          <Bars days={data.days} />
        )}
      </div>
    </Card>
  );
}

function Bars({ days }: { days: Array<{ day: string; ok: number; errored: number }> }) {
  const max = Math.max(1, ...days.map((d) => d.ok + d.errored));
  const top = axisTop(max);
  const plotH = H - PAD_TOP - PAD_BOTTOM;
  const slot = (W - PAD_LEFT) / days.length;
  const barW = Math.min(28, slot * 0.62);
  const y = (value: number) => PAD_TOP + plotH - (value / top) * plotH;

  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="h-auto w-full"
      role="img"
      aria-label={`Sessions per day: ${days.map((d) => `${d.day} ${d.ok + d.errored}`).join(', ')}`}
    >
      <Gridlines left={PAD_LEFT} right={W} top={top} y={y} label={(tick) => (Number.isInteger(tick) ? String(tick) : '')} />
      {days.map((d, i) => {
        const x = PAD_LEFT + i * slot + (slot - barW) / 2;
        const okTop = y(d.ok);
        const allTop = y(d.ok + d.errored);
        const date = new Date(`${d.day}T12:00:00`);
        const today = i === days.length - 1;
        return (
          <g key={d.day}>
            <title>{`${dayLabel.format(date)}: ${d.ok + d.errored} session${d.ok + d.errored === 1 ? '' : 's'}${d.errored ? ` (${d.errored} errored)` : ''}`}</title>
            <rect x={PAD_LEFT + i * slot} y={PAD_TOP} width={slot} height={plotH} fill="transparent" />
            {d.ok > 0 && <rect x={x} y={okTop} width={barW} height={y(0) - okTop} rx={2} className="fill-accent-500" />}
            {d.errored > 0 && <rect x={x} y={allTop} width={barW} height={okTop - allTop} rx={2} className="fill-red-400" />}
            {d.ok + d.errored === 0 && <rect x={x} y={y(0) - 1.5} width={barW} height={1.5} className="fill-zinc-200" />}
            {(days.length - 1 - i) % 2 === 0 && (
              <text x={x + barW / 2} y={H - 6} textAnchor="middle" className={today ? 'fill-zinc-700 text-[10px] font-medium' : 'fill-zinc-400 text-[10px]'}>
                {today ? 'Today' : dayLabel.format(date)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
