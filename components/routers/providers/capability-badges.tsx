// What the capability probe found on a provider, as badges: its kind, then each CDP capability
// that works (neutral) or does not (amber, with the probe's error on hover).
import type { Capabilities, Provider } from '@/lib/client/providers';
import { Badge } from '../../ui/badge';
import { CheckIcon } from '../../ui/icons';

const capabilityLabels = {
  browserCookies: { label: 'Cookies', what: 'Storage.getCookies: reads and sets browser cookies (profiles need it)' },
  targetCreate: { label: 'New pages', what: 'Target.createTarget: opens pages' },
  targetGetTargets: { label: 'Target list', what: 'Target.getTargets: lists open pages' },
  fetchInterception: { label: 'Interception', what: 'Fetch.enable: intercepts requests' },
  pageScreencast: { label: 'Screencast', what: 'Page.startScreencast: streams frames (recordings need it)' },
} as const satisfies Partial<Record<keyof Capabilities, unknown>>;

export function CapabilityBadges({ provider }: { provider: Provider }) {
  const c = provider.capabilities;
  if (!c.probedAt) {
    return (
      <span title={provider.adapterKind ? 'Key-based providers are not probed: probing would start a paid vendor browser.' : 'Not probed yet: use Reprobe.'}>
        <Badge>Not probed</Badge>
      </span>
    );
  }
  const errorFor = (name: string) => c.errors.find((e) => e.startsWith(`${name}:`));
  return (
    <div className="flex max-w-72 flex-wrap gap-1" aria-label="Capabilities">
      <span title={c.providerKind === 'managed' ? 'Managed: advertises its capacity and can save profiles' : 'Generic: a plain CDP browser'}>
        <Badge tone={c.providerKind === 'managed' ? 'accent' : 'neutral'}>
          {c.providerKind === 'managed' ? `Managed${c.advertisedMaxConcurrent ? ` · ${c.advertisedMaxConcurrent} slots` : ''}` : 'Generic'}
        </Badge>
      </span>
      {(Object.keys(capabilityLabels) as Array<keyof typeof capabilityLabels>).map((name) => {
        const value = c[name];
        const { label, what } = capabilityLabels[name];
        if (value === 'supported') {
          return (
            <span key={name} title={`${what}${name === 'targetCreate' && c.targetCreateLatencyMs !== null ? ` (${c.targetCreateLatencyMs} ms)` : ''}`}>
              <Badge className="gap-1 pl-1.5">
                <CheckIcon className="size-3 text-emerald-600" />
                {label}
              </Badge>
            </span>
          );
        }
        return (
          <span key={name} title={errorFor(name) ?? `${what}: ${value === 'unknown' ? 'not tried' : 'not supported'}`}>
            <Badge tone="warning" className="line-through decoration-amber-400">
              {label}
            </Badge>
          </span>
        );
      })}
    </div>
  );
}
