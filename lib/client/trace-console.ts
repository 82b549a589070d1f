// The trace viewer's console lines, made from a trace's console and exception events
// (lib/traces/format.ts): grouped by level, filtered, counted, with where each came from.
import type { ConsoleEvent, TraceEvent } from '../traces/format';
import { splitUrl } from './trace-model';

// ---------------------------------------------------------------- console

export type ConsoleGroup = 'error' | 'warning' | 'info' | 'log';
export const CONSOLE_GROUPS: readonly ConsoleGroup[] = ['error', 'warning', 'info', 'log'];
export const CONSOLE_GROUP_LABELS: Record<ConsoleGroup, string> = { error: 'Errors', warning: 'Warnings', info: 'Info', log: 'Logs' };

export interface ConsoleEntry {
  key: string;
  seq: number;
  t: number;
  tab: string | null;
  kind: 'console' | 'exception';
  level: ConsoleEvent['level'];
  /** The filter it falls under: exceptions are errors, debug lines are logs. */
  group: ConsoleGroup;
  source: string;
  text: string;
  stack?: string;
  url?: string;
  line?: number;
  column?: number;
}

export function consoleEntries(events: readonly TraceEvent[]): ConsoleEntry[] {
  const out: ConsoleEntry[] = [];
  for (const e of events) {
    if (e.kind === 'console') {
      out.push({
        key: String(e.seq),
        seq: e.seq,
        t: e.t,
        tab: e.tab,
        kind: 'console',
        level: e.level,
        group: e.level === 'debug' ? 'log' : e.level,
        source: e.source,
        text: e.text,
        url: e.url,
        line: e.line,
        column: e.column,
      });
    } else if (e.kind === 'exception') {
      out.push({
        key: String(e.seq),
        seq: e.seq,
        t: e.t,
        tab: e.tab,
        kind: 'exception',
        level: 'error',
        group: 'error',
        source: 'exception',
        text: e.text,
        stack: e.stack,
        url: e.url,
        line: e.line,
        column: e.column,
      });
    }
  }
  return out;
}

export function filterConsole(entries: readonly ConsoleEntry[], { groups, search }: { groups: ReadonlySet<ConsoleGroup>; search: string }): ConsoleEntry[] {
  const text = search.trim().toLowerCase();
  return entries.filter(
    (e) =>
      groups.has(e.group) &&
      (!text || e.text.toLowerCase().includes(text) || (e.stack?.toLowerCase().includes(text) ?? false) || (e.url?.toLowerCase().includes(text) ?? false)),
  );
}

export function countGroups(entries: readonly ConsoleEntry[]): Record<ConsoleGroup, number> {
  const counts: Record<ConsoleGroup, number> = { error: 0, warning: 0, info: 0, log: 0 };
  for (const e of entries) counts[e.group]++;
  return counts;
}

/** Where a console line came from, as `file.js:12:5` (the URL's last segment). */
export function sourceLocation(e: Pick<ConsoleEntry, 'url' | 'line' | 'column'>): string | null {
  if (!e.url) return null;
  const { path } = splitUrl(e.url);
  const file = path.split('?')[0]!.split('/').filter(Boolean).at(-1) || path || e.url;
  return [file, e.line, e.line !== undefined ? e.column : undefined].filter((p) => p !== undefined).join(':');
}
