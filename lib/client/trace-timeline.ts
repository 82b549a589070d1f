// The trace viewer's time: each tab's life and navigations, the notes, and the one axis every row
// is placed on (the proxy's clock, Unix ms; lib/client/trace-model.ts says how browser times are
// brought onto it). Pure: events in, rows out.
import type { NavigationEvent, NoteEvent, TraceEvent } from '../traces/format';
import type { NetworkRequest } from './trace-model';

// ---------------------------------------------------------------- tabs and navigations

export interface TabTimeline {
  tab: string;
  openedAt: number | null;
  closedAt: number | null;
  /** The address it opened with, else its first navigation's. */
  url: string | null;
  openerId?: string;
  /** Main-frame navigations, in order. */
  navigations: Pick<NavigationEvent, 'seq' | 't' | 'url' | 'sameDocument'>[];
}

export function tabTimelines(events: readonly TraceEvent[]): TabTimeline[] {
  const tabs = new Map<string, TabTimeline>();
  const tabOf = (id: string) => {
    let tab = tabs.get(id);
    if (!tab) {
      tab = { tab: id, openedAt: null, closedAt: null, url: null, navigations: [] };
      tabs.set(id, tab);
    }
    return tab;
  };
  for (const e of events) {
    if (!e.tab) continue;
    if (e.kind === 'tab') {
      const tab = tabOf(e.tab);
      if (e.action === 'opened') {
        tab.openedAt ??= e.t;
        tab.url ||= e.url || null;
        if (e.openerId) tab.openerId = e.openerId;
      } else {
        tab.closedAt = e.t;
      }
    } else if (e.kind === 'navigation' && e.main) {
      const tab = tabOf(e.tab);
      tab.navigations.push({ seq: e.seq, t: e.t, url: e.url, sameDocument: e.sameDocument });
      if (!tab.url || tab.url === 'about:blank') tab.url = e.url;
    }
  }
  return [...tabs.values()];
}

export const traceNotes = (events: readonly TraceEvent[]): NoteEvent[] => events.filter((e): e is NoteEvent => e.kind === 'note');

// ---------------------------------------------------------------- the axis

export interface TimeAxis {
  start: number;
  end: number;
}

/** From the trace's start (or its first event) to its end (or its last request or event). */
export function traceAxis(
  bounds: { startedAt: number | null; endedAt: number | null },
  events: readonly Pick<TraceEvent, 't'>[],
  requests: readonly Pick<NetworkRequest, 'start' | 'end'>[],
): TimeAxis {
  let start = bounds.startedAt ?? Infinity;
  let end = bounds.endedAt ?? -Infinity;
  for (const e of events) {
    if (e.t < start) start = e.t;
    if (e.t > end) end = e.t;
  }
  for (const r of requests) {
    if (r.start < start) start = r.start;
    if ((r.end ?? r.start) > end) end = r.end ?? r.start;
  }
  if (!Number.isFinite(start)) start = Number.isFinite(end) ? end : 0;
  if (!Number.isFinite(end) || end <= start) end = start + 1;
  return { start, end };
}

/** Where `t` sits on the axis, 0 to 1. */
export const axisFraction = (axis: TimeAxis, t: number) => Math.min(1, Math.max(0, (t - axis.start) / (axis.end - axis.start)));

/** The ruler's marks: offsets from the axis start (ms), about `count` of them, 1, 2 or 5 × 10^n ms apart. */
export function axisTicks(axis: TimeAxis, count = 6): number[] {
  const span = axis.end - axis.start;
  const rough = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1e-3)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let at = 0; at <= span + 1e-9; at += step) ticks.push(at);
  return ticks;
}

/** A span of milliseconds: 850 ms, 1.25 s, 2 min 5 s. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A moment of the trace as the time since the axis started: +0.000 s. */
export const formatAt = (axis: TimeAxis, t: number) => `+${((t - axis.start) / 1000).toFixed(3)} s`;

/** A moment of the trace as a position of the recording's player (ms since the recording started). */
export const playerPositionAt = (t: number, recordingStartedAt: number) => Math.max(0, t - recordingStartedAt);
