// Timestamps: a short date (or "3 hours ago") with the full local time on hover.
const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return fullFormat.format(new Date(iso));
}

export function formatRelative(iso: string, now = Date.now()): string {
  const delta = new Date(iso).getTime() - now;
  for (const [unit, ms] of units) {
    if (Math.abs(delta) >= ms) return relativeFormat.format(Math.round(delta / ms), unit);
  }
  return 'just now';
}

export function Time({ value, relative = false, fallback = '—' }: { value: string | null | undefined; relative?: boolean; fallback?: string }) {
  if (!value) return <span className="text-zinc-400">{fallback}</span>;
  return (
    <time dateTime={value} title={formatDateTime(value)} suppressHydrationWarning className="whitespace-nowrap">
      {relative ? formatRelative(value) : formatDate(value)}
    </time>
  );
}
