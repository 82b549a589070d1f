// The billing period: the calendar month in UTC. UsageCounter rows are keyed by it (`YYYY-MM`).

export const usagePeriod = (at: Date) => at.toISOString().slice(0, 7);

/** The UTC month containing `at`: its first instant and the first instant of the next month. */
export function periodBounds(at: Date): { startedAt: Date; endsAt: Date } {
  const startedAt = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const endsAt = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { startedAt, endsAt };
}
