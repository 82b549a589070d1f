'use client';
// The router's four switches (docs/connect.md, "Router switches") and the defaults for browsers that chat
// agents open. Switches save as soon as they flip.
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useActiveWorkspace } from '@/lib/client/me';
import {
  useAgentSettings,
  useRouterSettings,
  useUpdateAgentSettings,
  useUpdateRouterSettings,
  type AgentSettings,
  type RouterSettings,
} from '@/lib/client/routers';
import { updateAgentSettingsSchema } from '@/lib/routers/schemas';
import { ProfileSelect } from '../../profiles/profile-select';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { ErrorState } from '../../ui/empty-state';
import { Skeleton } from '../../ui/skeleton';
import { Switch } from '../../ui/switch';
import { useToast } from '../../ui/toast';

function SwitchRow({ id, title, description, control }: { id: string; title: string; description: ReactNode; control: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-6 px-5 py-3.5">
      <label htmlFor={id} className="min-w-0">
        <span className="block text-sm font-medium text-zinc-900">{title}</span>
        <span className="block text-[13px] text-zinc-500">{description}</span>
      </label>
      {control}
    </div>
  );
}

function RowsSkeleton({ rows }: { rows: number }) {
  return (
    <div className="divide-y divide-zinc-100">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center justify-between px-5 py-4">
          <Skeleton className="h-4 w-64" />
          <Skeleton className="h-6 w-11 rounded-full" />
        </div>
      ))}
    </div>
  );
}

const features: Array<{ field: keyof Omit<RouterSettings, 'routerInstanceId'>; title: string; description: string }> = [
  { field: 'replayEnabled', title: 'Recording', description: 'Sessions may ask for a video recording (session_record=true); off answers 409.' },
  {
    field: 'observabilityEnabled',
    title: 'Traces',
    description: 'Sessions may ask for a trace of network, console and navigations (observability=true); off answers 409.',
  },
  { field: 'profilesEnabled', title: 'Profiles', description: 'Sessions may load and save a saved profile (profile=<slug>); off answers 409.' },
  { field: 'webhooksEnabled', title: 'Webhooks', description: "Webhooks fire for this router's sessions; off sends nothing." },
];

export function FeaturesCard({ routerId }: { routerId: string }) {
  const settings = useRouterSettings(routerId);
  const update = useUpdateRouterSettings(routerId);
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  return (
    <Card aria-label="Features">
      <CardHeader title="Features" description="What a connection to this router may ask for. All four are on for a new router." />
      {settings.error && !settings.data ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !settings.data ? (
        <RowsSkeleton rows={4} />
      ) : (
        <div className="divide-y divide-zinc-100">
          {features.map(({ field, title, description }) => (
            <SwitchRow
              key={field}
              id={`feature-${field}`}
              title={title}
              description={description}
              control={
                <Switch
                  id={`feature-${field}`}
                  checked={settings.data[field]}
                  disabled={!canManage}
                  pending={update.isPending && update.variables && field in update.variables}
                  onChange={(on) => update.mutate({ [field]: on }, { onSuccess: () => toast(`${title} ${on ? 'on' : 'off'}`) })}
                />
              }
            />
          ))}
        </div>
      )}
      {update.error && (
        <div className="px-5 pb-4">
          <Alert tone="danger">{errorMessage(update.error)}</Alert>
        </div>
      )}
    </Card>
  );
}

const agentFlags: Array<{ field: 'recordDefault' | 'observabilityDefault' | 'saveProfileDefault'; title: string; description: string }> = [
  { field: 'recordDefault', title: 'Record by default', description: 'Record browsers that agents open without saying otherwise.' },
  { field: 'observabilityDefault', title: 'Trace by default', description: 'Capture a trace of those browsers.' },
  { field: 'saveProfileDefault', title: 'Save the profile by default', description: 'Save changes back to the default profile when the browser closes.' },
];

export function AgentDefaultsCard({ routerId }: { routerId: string }) {
  const settings = useAgentSettings(routerId);
  const update = useUpdateAgentSettings(routerId);
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  return (
    <Card aria-label="Agent defaults">
      <CardHeader title="Agent defaults" description="Options for browsers that chat agents open on this router without asking for any." />
      {settings.error && !settings.data ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !settings.data ? (
        <RowsSkeleton rows={4} />
      ) : (
        <div className="divide-y divide-zinc-100">
          {agentFlags.map(({ field, title, description }) => (
            <SwitchRow
              key={field}
              id={`agent-${field}`}
              title={title}
              description={description}
              control={
                <Switch
                  id={`agent-${field}`}
                  checked={settings.data[field]}
                  disabled={!canManage}
                  pending={update.isPending && update.variables && field in update.variables}
                  onChange={(on) => update.mutate({ [field]: on }, { onSuccess: () => toast(`${title}: ${on ? 'on' : 'off'}`) })}
                />
              }
            />
          ))}
          <DefaultProfileRow key={settings.data.defaultProfile ?? ''} routerId={routerId} settings={settings.data} canManage={canManage} />
        </div>
      )}
      {update.error && !update.variables?.defaultProfile && (
        <div className="px-5 pb-4">
          <Alert tone="danger">{errorMessage(update.error)}</Alert>
        </div>
      )}
    </Card>
  );
}

/** The default profile's state: the slug as picked, its error, change and save. */
function useDefaultProfileForm(routerId: string, settings: AgentSettings) {
  const update = useUpdateAgentSettings(routerId);
  const toast = useToast();
  const [value, setValue] = useState(settings.defaultProfile ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const next = value || null;
  const submit = () => {
    const parsed = validate(updateAgentSettingsSchema, { defaultProfile: next });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => toast(saved.defaultProfile ? `Default profile: ${saved.defaultProfile}` : 'No default profile'),
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['defaultProfile']) ?? { defaultProfile: errorMessage(error) }),
    });
  };
  const change = (v: string) => {
    setErrors({});
    setValue(v);
  };
  return { update, value, change, error: errors.defaultProfile, unchanged: next === settings.defaultProfile, submit };
}

/** The default profile, saved with its own button. The card keys it by the saved slug, so its state starts over when that changes. */
function DefaultProfileRow({ routerId, settings, canManage }: { routerId: string; settings: AgentSettings; canManage: boolean }) {
  const { update, value, change, error, unchanged, submit } = useDefaultProfileForm(routerId, settings);
  return (
    <form
      noValidate
      className="px-5 py-3.5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <label htmlFor="agent-default-profile" className="min-w-0">
          <span className="block text-sm font-medium text-zinc-900">Default profile</span>
          <span className="block text-[13px] text-zinc-500">
            A saved profile those browsers load (
            <Link href="/profiles" className="font-medium text-accent-600 hover:text-accent-700">
              Profiles
            </Link>
            ).
          </span>
        </label>
        <div className="flex items-center gap-2">
          <ProfileSelect
            id="agent-default-profile"
            value={value}
            onChange={change}
            invalid={Boolean(error)}
            disabled={!canManage}
            className="w-48 font-mono text-[13px]"
          />
          {canManage && (
            <Button type="submit" size="sm" loading={update.isPending} disabled={unchanged}>
              Save
            </Button>
          )}
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-1.5 text-right text-[13px] text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}
