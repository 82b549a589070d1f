// The overview's daily series (docs/api.md, Overview): the `days` UTC days ending today, oldest
// first, every day present (zeros where nothing happened). Pure: the clock is an argument, so the
// day edges are tested without waiting for midnight.

const DAY_MS = 86_400_000;

export type SessionStateName = 'active' | 'closed' | 'errored';

/** Sessions of one UTC start day and state, as the grouped query returns them. */
export interface SessionDayRow {
  day: string;
  state: SessionStateName;
  count: number;
}

/** Data-API calls of one UTC day (one router's, or summed). */
export interface CallDayRow {
  day: string;
  calls: number;
  failed: number;
}

export interface OverviewDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Sessions started that day, and of them how many are active now, closed or errored. */
  sessions: number;
  active: number;
  closed: number;
  errored: number;
  /** Data-API calls answered 200 that day, and those answered with an error. */
  dataApiCalls: number;
  dataApiFailed: number;
}

/** The window: its days (YYYY-MM-DD, oldest first), its first instant and the instant after it (the next UTC midnight). */
export function utcWindow(days: number, now: Date): { days: string[]; from: Date; until: Date } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const from = today - (days - 1) * DAY_MS;
  return {
    days: Array.from({ length: days }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10)),
    from: new Date(from),
    until: new Date(today + DAY_MS),
  };
}

/** One row per day of the window; rows for days outside it are ignored, several rows of a day add up. */
export function dailySeries(days: number, now: Date, sessions: readonly SessionDayRow[], calls: readonly CallDayRow[]): OverviewDay[] {
  const rows = new Map(
    utcWindow(days, now).days.map((day): [string, OverviewDay] => [
      day,
      { day, sessions: 0, active: 0, closed: 0, errored: 0, dataApiCalls: 0, dataApiFailed: 0 },
    ]),
  );
  for (const s of sessions) {
    const row = rows.get(s.day);
    if (!row) continue;
    row.sessions += s.count;
    row[s.state] += s.count;
  }
  for (const c of calls) {
    const row = rows.get(c.day);
    if (!row) continue;
    row.dataApiCalls += c.calls;
    row.dataApiFailed += c.failed;
  }
  return [...rows.values()];
}

/** The series summed over the window. */
export function seriesTotals(series: readonly OverviewDay[]): Omit<OverviewDay, 'day'> {
  const totals = { sessions: 0, active: 0, closed: 0, errored: 0, dataApiCalls: 0, dataApiFailed: 0 };
  for (const row of series) for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += row[key];
  return totals;
}
