'use client';
// Errored sessions per provider over the overview's window, worst first, with each provider's
// share of errors among its sessions.
import type { Overview } from '@/lib/client/overview';
import { Card, CardHeader } from '../ui/card';
import { CheckCircleIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';

const SHOWN = 6;

export function ProviderErrors({ overview, days }: { overview: Overview | undefined; days: number }) {
  const rows = overview?.errorsByProvider;
  const errored = rows?.reduce((sum, r) => sum + r.errored, 0) ?? 0;
  const routerName = (id: string | null) => overview?.routers.find((r) => r.id === id)?.name ?? 'a deleted router';
  return (
    <Card aria-label="Errors by provider">
      <CardHeader
        title="Errors by provider"
        description={
          rows && rows.length > 0
            ? `${errored.toLocaleString('en')} errored session${errored === 1 ? '' : 's'} in the last ${days} days.`
            : `The last ${days} days.`
        }
      />
      {!rows ? (
        <div className="space-y-3 px-5 py-4">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
      ) : rows.length === 0 ? (
        <p className="px-5 py-6 text-center text-[13px] text-zinc-500">No sessions in the last {days} days.</p>
      ) : (
        <>
          {errored === 0 && (
            <p className="flex items-center gap-2 border-b border-zinc-100 px-5 py-3 text-[13px] text-emerald-700">
              <CheckCircleIcon className="size-4" />
              No errored sessions.
            </p>
          )}
          <ul className="divide-y divide-zinc-100" aria-label="Providers by errored sessions">
            {rows.slice(0, SHOWN).map((p) => {
              const share = p.sessions > 0 ? p.errored / p.sessions : 0;
              return (
                <li key={`${p.routerId}/${p.providerSlug}`} className="px-5 py-3" aria-label={`${p.providerName}: ${p.errored} errored of ${p.sessions}`}>
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <span className="min-w-0 truncate">
                      <span className="font-medium text-zinc-900">{p.providerName}</span>
                      <span className="ml-1.5 text-[12px] text-zinc-500">on {routerName(p.routerId)}</span>
                    </span>
                    <span className="shrink-0 tabular-nums">
                      <span className={p.errored > 0 ? 'font-medium text-red-700' : 'text-zinc-400'}>{p.errored.toLocaleString('en')}</span>
                      <span className="text-zinc-500"> of {p.sessions.toLocaleString('en')}</span>
                    </span>
                  </div>
                  <div className="mt-1.5 h-1 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
                    <div className="h-full rounded-full bg-red-400" style={{ width: `${share * 100}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
          {rows.length > SHOWN && (
            <p className="border-t border-zinc-100 px-5 py-2.5 text-[12px] text-zinc-500">{rows.length - SHOWN} more providers with sessions in this period.</p>
          )}
        </>
      )}
    </Card>
  );
}
