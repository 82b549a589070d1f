'use client';
// One provider's live state as the proxy reports it: healthy, down or cooling down, and how many
// sessions it carries against its limit.
import { useEffect, useState } from 'react';
import type { LiveProvider, Provider } from '@/lib/client/providers';
import { Badge } from '../../ui/badge';

function useSecondsUntil(iso: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [iso]);
  if (!iso) return null;
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 1_000));
}

export function LiveState({ provider, live, available }: { provider: Provider; live: LiveProvider | undefined; available: boolean | undefined }) {
  const cooldown = useSecondsUntil(live?.cooldownUntil ?? null);
  if (!provider.enabled) return <Badge>Disabled</Badge>;
  if (available === undefined) return <span className="text-zinc-400">…</span>;
  if (!available)
    return (
      <span className="text-zinc-400" title="Live state unavailable">
        —
      </span>
    );
  if (!live)
    return (
      <span className="text-[13px] text-zinc-400" title="The proxy has not loaded this provider yet">
        Starting…
      </span>
    );

  const limit = live.maxConcurrent;
  const load = `${live.active}${limit !== null ? ` / ${limit}` : ''} active`;
  return (
    <div className="space-y-0.5" data-testid={`live-${provider.slug}`}>
      {cooldown !== null && cooldown > 0 ? (
        <Badge tone="warning" dot>
          Cooling down · {cooldown} s
        </Badge>
      ) : live.healthy ? (
        <Badge tone="success" dot>
          Healthy
        </Badge>
      ) : (
        <Badge tone="danger" dot>
          Unreachable
        </Badge>
      )}
      <div className={limit !== null && live.active >= limit ? 'text-[12px] font-medium text-amber-700' : 'text-[12px] text-zinc-500'}>{load}</div>
    </div>
  );
}
