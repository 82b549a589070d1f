'use client';
// A router's settings: name, routing, the four switches, agent defaults, trace redaction, and deleting it.
import { useRouter } from 'next/navigation';
import { useActiveWorkspace } from '@/lib/client/me';
import { useDeleteRouter, useRouterInstance } from '@/lib/client/routers';
import { DangerCard } from '../../ui/danger-card';
import { ErrorState } from '../../ui/empty-state';
import { Skeleton } from '../../ui/skeleton';
import { useToast } from '../../ui/toast';
import { GeneralCard } from './general-card';
import { RoutingCard } from './routing-card';
import { TraceRedactionCard } from './trace-redaction-card';
import { AgentDefaultsCard, FeaturesCard } from './switches-card';

export function SettingsTab({ routerId }: { routerId: string }) {
  const router = useRouterInstance(routerId);
  if (router.error && !router.data) return <ErrorState error={router.error} onRetry={() => void router.refetch()} />;
  if (!router.data) {
    return (
      <div className="space-y-6" aria-busy="true">
        <Skeleton className="h-40 w-full rounded-xl" />
        <Skeleton className="h-96 w-full rounded-xl" />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <GeneralCard router={router.data} />
      <RoutingCard router={router.data} />
      <div className="grid gap-6 lg:grid-cols-2">
        <FeaturesCard routerId={routerId} />
        <AgentDefaultsCard routerId={routerId} />
      </div>
      <TraceRedactionCard router={router.data} />
      <DeleteRouterCard routerId={routerId} name={router.data.name} slug={router.data.slug} />
    </div>
  );
}

function DeleteRouterCard({ routerId, name, slug }: { routerId: string; name: string; slug: string }) {
  const remove = useDeleteRouter();
  const { canManage } = useActiveWorkspace();
  const navigate = useRouter();
  const toast = useToast();
  if (!canManage) return null;
  return (
    <DangerCard
      title="Delete router"
      description="Deletes the router with its providers, keys and chat link. Its connect URL stops working at once; session history stays."
      action="Delete router"
      confirm={{
        title: `Delete ${name}?`,
        description: 'This cannot be undone. Scripts using its keys are refused from now on.',
        confirmLabel: 'Delete router',
        requireText: slug,
        onConfirm: () => remove.mutateAsync(routerId),
        onDone: () => {
          toast(`Deleted ${name}`);
          navigate.push('/routers');
        },
      }}
    />
  );
}
