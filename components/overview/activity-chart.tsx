'use client';
// Sessions and data-API calls per UTC day: two bars a day, sessions (errored ones on top, in red)
// and data-API calls (failed ones on top, in amber). Hovering a day shows its figures; the same
// figures are in a table for screen readers. It is drawn at the width it is shown at (not a
// 720-wide drawing scaled down), so its labels keep their size on a phone.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { OverviewDay } from '@/lib/client/overview';
import { axisTop, Gridlines } from '../ui/chart-axis';

/** The drawing's width before the first measure, and the narrowest it is drawn. */
const W = 720;
const MIN_W = 280;
/** About one day label per this many pixels. */
const LABEL_PX = 64;
const H = 190;
const PAD_TOP = 12;
const PAD_BOTTOM = 22;
const PAD_LEFT = 36;

const dayLabel = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const fullDayLabel = new Intl.DateTimeFormat('en', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export const chartLegend = [
  { label: 'Sessions', className: 'bg-accent-500' },
  { label: 'Errored sessions', className: 'bg-red-400' },
  { label: 'Data-API calls', className: 'bg-sky-400' },
  { label: 'Failed calls', className: 'bg-amber-400' },
] as const;

export function daySummary(d: OverviewDay): string {
  const sessions = `${plural(d.sessions, 'session')}${d.errored ? ` (${d.errored} errored)` : ''}`;
  const calls = `${plural(d.dataApiCalls, 'data-API call')}${d.dataApiFailed ? ` (+${d.dataApiFailed} failed)` : ''}`;
  return `${fullDayLabel.format(utc(d.day))}: ${sessions}, ${calls}`;
}

export function ActivityChart({ series }: { series: OverviewDay[] }) {
  const [hover, setHover] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const w = useDrawnWidth(box);
  const { top, empty, plotH, slot, barW, y, labelEvery } = chartScale(series, w);
  const hovered = hover === null ? null : series[hover];

  return (
    <div ref={box} className="relative min-w-0" onMouseLeave={() => setHover(null)}>
      <svg
        viewBox={`0 0 ${w} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Sessions and data-API calls per day${empty ? ': none in this period' : ''}`}
      >
        <Gridlines
          left={PAD_LEFT}
          right={w}
          top={top}
          y={y}
          label={(tick) => ((empty && tick > 0) || !Number.isInteger(tick) ? '' : tick.toLocaleString('en'))}
        />
        {series.map((d, i) => {
          const x = PAD_LEFT + i * slot + (slot - 2 * barW - 1) / 2;
          const ok = d.sessions - d.errored;
          const last = i === series.length - 1;
          return (
            <g key={d.day}>
              <title>{daySummary(d)}</title>
              {hover === i && <rect x={PAD_LEFT + i * slot} y={PAD_TOP} width={slot} height={plotH} className="fill-zinc-100/80" />}
              <Stack x={x} width={barW} y={y} lower={ok} upper={d.errored} lowerClass="fill-accent-500" upperClass="fill-red-400" />
              <Stack x={x + barW + 1} width={barW} y={y} lower={d.dataApiCalls} upper={d.dataApiFailed} lowerClass="fill-sky-400" upperClass="fill-amber-400" />
              {(series.length - 1 - i) % labelEvery === 0 && (
                <text
                  x={last ? w : x + barW}
                  y={H - 6}
                  textAnchor={last ? 'end' : 'middle'}
                  className={last ? 'fill-zinc-700 text-[10px] font-medium' : 'fill-zinc-400 text-[10px]'}
                >
                  {last ? 'Today' : dayLabel.format(utc(d.day))}
                </text>
              )}
              <rect data-day={d.day} x={PAD_LEFT + i * slot} y={PAD_TOP} width={slot} height={plotH} fill="transparent" onMouseEnter={() => setHover(i)} />
            </g>
          );
        })}
      </svg>
      {empty && (
        <p className="pointer-events-none absolute inset-x-0 top-1/3 text-center text-[13px] text-zinc-400">No sessions or data-API calls in this period</p>
      )}
      {hovered && hover !== null && <DayTooltip day={hovered} left={Math.min(88, Math.max(12, ((PAD_LEFT + (hover + 0.5) * slot) / w) * 100))} />}
      <DayTable series={series} />
    </div>
  );
}

/** Where things go in a drawing `w` wide: the axis's top, the plot's height, each day's slot and bars, how often a day is labelled. */
function chartScale(series: OverviewDay[], w: number) {
  const max = Math.max(0, ...series.map((d) => Math.max(d.sessions, d.dataApiCalls + d.dataApiFailed)));
  const top = axisTop(max);
  const plotH = H - PAD_TOP - PAD_BOTTOM;
  const slot = (w - PAD_LEFT) / Math.max(1, series.length);
  const barW = Math.max(2, Math.min(12, slot * 0.34));
  const y = (value: number) => PAD_TOP + plotH - (value / top) * plotH;
  const labelEvery = Math.ceil(series.length / Math.max(2, Math.floor((w - PAD_LEFT) / LABEL_PX)));
  return { top, empty: max === 0, plotH, slot, barW, y, labelEvery };
}

/** The drawing's width: the box's own, measured as it changes (never below MIN_W). */
function useDrawnWidth(box: RefObject<HTMLDivElement | null>): number {
  const [w, setW] = useState(W);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setW(Math.max(MIN_W, Math.round(entry!.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return w;
}

/** The hovered day's figures, `left` per cent across the chart. */
function DayTooltip({ day, left }: { day: OverviewDay; left: number }) {
  return (
    <div
      role="tooltip"
      className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-[12px] whitespace-nowrap shadow-md"
      style={{ left: `${left}%` }}
    >
      <div className="font-medium text-zinc-900">{fullDayLabel.format(utc(day.day))}</div>
      <div className="mt-1 grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 tabular-nums text-zinc-600">
        <span>Sessions</span>
        <span className="text-right font-medium text-zinc-900">{day.sessions.toLocaleString('en')}</span>
        {day.errored > 0 && (
          <>
            <span className="text-red-700">Errored</span>
            <span className="text-right text-red-700">{day.errored.toLocaleString('en')}</span>
          </>
        )}
        <span>Data-API calls</span>
        <span className="text-right font-medium text-zinc-900">{day.dataApiCalls.toLocaleString('en')}</span>
        {day.dataApiFailed > 0 && (
          <>
            <span className="text-amber-800">Failed calls</span>
            <span className="text-right text-amber-800">{day.dataApiFailed.toLocaleString('en')}</span>
          </>
        )}
      </div>
    </div>
  );
}

/** The same figures for screen readers. */
function DayTable({ series }: { series: OverviewDay[] }) {
  return (
    <table className="sr-only" aria-label="Sessions and data-API calls per day (UTC)">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Sessions</th>
          <th scope="col">Errored</th>
          <th scope="col">Data-API calls</th>
          <th scope="col">Failed calls</th>
        </tr>
      </thead>
      <tbody>
        {series.map((d) => (
          <tr key={d.day}>
            <th scope="row">{d.day}</th>
            <td>{d.sessions}</td>
            <td>{d.errored}</td>
            <td>{d.dataApiCalls}</td>
            <td>{d.dataApiFailed}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One bar: `lower` from the axis, `upper` on top of it; a thin grey line when both are zero. */
function Stack({
  x,
  width,
  y,
  lower,
  upper,
  lowerClass,
  upperClass,
}: {
  x: number;
  width: number;
  y: (v: number) => number;
  lower: number;
  upper: number;
  lowerClass: string;
  upperClass: string;
}) {
  if (lower + upper === 0) return <rect x={x} y={y(0) - 1.5} width={width} height={1.5} className="fill-zinc-200" />;
  const base = y(0);
  // Each part at least 1.5 units tall, so a single errored session still shows.
  const lowerTop = lower > 0 ? Math.min(y(lower), base - 1.5) : base;
  const upperTop = Math.min(y(lower + upper), lowerTop - 1.5);
  return (
    <>
      {lower > 0 && <rect x={x} y={lowerTop} width={width} height={base - lowerTop} rx={1.5} className={lowerClass} />}
      {upper > 0 && <rect x={x} y={upperTop} width={width} height={lowerTop - upperTop} rx={1.5} className={upperClass} />}
    </>
  );
}
