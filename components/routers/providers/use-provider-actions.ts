// What an owner or admin does to a router's providers from its tab: enable or disable, test,
// reprobe. A success is a toast; a failure stays on the tab as a notice until dismissed or the next
// action. The tab (providers-tab.tsx) only draws.
import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { useReprobeProvider, useTestProvider, useUpdateProvider, type Provider } from '@/lib/client/providers';
import { useToast } from '../../ui/toast';

export type Notice = { tone: 'danger' | 'success'; title: string; body: ReactNode } | null;

export function useProviderActions(routerId: string) {
  const update = useUpdateProvider(routerId);
  const test = useTestProvider(routerId);
  const reprobe = useReprobeProvider(routerId);
  const toast = useToast();
  const [notice, setNotice] = useState<Notice>(null);
  const failed = (title: string) => (error: unknown) => setNotice({ tone: 'danger', title, body: errorMessage(error) });

  return {
    notice,
    dismiss: () => setNotice(null),
    /** A test or reprobe of this provider is running. */
    busy: (slug: string) => (test.isPending && test.variables === slug) || (reprobe.isPending && reprobe.variables === slug),
    /** Its enable switch is being saved. */
    toggling: (slug: string) => update.isPending && update.variables?.slug === slug && update.variables.enabled !== undefined,
    toggle(provider: Provider, enabled: boolean) {
      setNotice(null);
      update.mutate(
        { slug: provider.slug, enabled },
        {
          onSuccess: () => toast(`${provider.name} ${enabled ? 'enabled' : 'disabled'}`),
          onError: failed(`Couldn't ${enabled ? 'enable' : 'disable'} ${provider.name}`),
        },
      );
    },
    test(provider: Provider) {
      setNotice(null);
      test.mutate(provider.slug, {
        onSuccess: (outcome) =>
          outcome.ok
            ? toast(`${provider.name} answered in ${outcome.latencyMs} ms`)
            : setNotice({ tone: 'danger', title: `${provider.name} failed its test`, body: outcome.reason }),
        onError: failed(`Couldn't test ${provider.name}`),
      });
    },
    reprobe(provider: Provider) {
      setNotice(null);
      reprobe.mutate(provider.slug, {
        onSuccess: (probed) => toast(`Probed ${probed.name} again`),
        onError: failed(`Couldn't probe ${provider.name}`),
      });
    },
  };
}

export type ProviderActions = ReturnType<typeof useProviderActions>;
