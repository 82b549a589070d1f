'use client';
// The connect tab's options card: the query parameters of the connect URL (provider=, profile=,
// read-only, and the captures of capture-options.tsx), each said with what it does and when the
// router refuses it (docs/connect.md). The options themselves are the tab's state; this card edits them.
import { useState } from 'react';
import { useProviders, type Provider } from '@/lib/client/providers';
import { useRouterSettings } from '@/lib/client/routers';
import { OTHER_PROFILE, ProfileSelect } from '../../profiles/profile-select';
import { Card, CardBody, CardHeader } from '../../ui/card';
import { Field, Input, Select } from '../../ui/input';
import { RecordOption, TraceOption } from './capture-options';
import type { ConnectOptions } from './snippets';

type SetOption = <K extends keyof ConnectOptions>(field: K, value: ConnectOptions[K]) => void;

/** The card's state: the router's providers and switches, one option changed, and a new profile slug being typed. */
function useConnectOptionsForm(routerId: string, options: ConnectOptions, onChange: (options: ConnectOptions) => void) {
  const providers = useProviders(routerId);
  const settings = useRouterSettings(routerId);
  const set: SetOption = (field, value) => onChange({ ...options, [field]: value });
  // "Another slug…": a profile not made yet (the first session with it starts it empty).
  const [typing, setTyping] = useState(false);
  const pickProfile = (value: string) => {
    setTyping(value === OTHER_PROFILE);
    onChange({ ...options, profile: value === OTHER_PROFILE ? '' : value, readOnly: value ? options.readOnly : false });
  };
  return { providers, settings, set, typing, pickProfile };
}

export function ConnectOptionsCard({
  routerId,
  options,
  onChange,
}: {
  routerId: string;
  options: ConnectOptions;
  onChange: (options: ConnectOptions) => void;
}) {
  const { providers, settings, set, typing, pickProfile } = useConnectOptionsForm(routerId, options, onChange);

  return (
    <Card aria-label="Connection options">
      <CardHeader title="Options" description="Query parameters of the connect URL. They change the URL and every snippet that connects with it." />
      <CardBody className="grid gap-x-6 gap-y-5 md:grid-cols-2">
        <ProviderField providers={providers.data?.items} value={options.provider} onChange={(slug) => set('provider', slug)} />
        <ProfileField options={options} set={set} typing={typing} onPick={pickProfile} profilesOn={settings.data?.profilesEnabled} />
        <RecordOption on={options.record} onChange={(on) => set('record', on)} switchOn={settings.data?.replayEnabled} />
        <TraceOption on={options.observability} onChange={(on) => set('observability', on)} switchOn={settings.data?.observabilityEnabled} />
      </CardBody>
    </Card>
  );
}

/** provider=: any provider, or one pinned by its slug. */
function ProviderField({ providers, value, onChange }: { providers: Provider[] | undefined; value: string; onChange: (slug: string) => void }) {
  return (
    <Field
      label={
        <>
          Provider <code className="ml-1 font-mono text-[12px] font-normal text-zinc-400">provider=</code>
        </>
      }
      htmlFor="connect-provider"
      hint="Pin one provider: no failover; 503 while it cools down or is full."
    >
      <Select id="connect-provider" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any (the router decides)</option>
        {providers?.map((p) => (
          <option key={p.id} value={p.slug}>
            {p.name} ({p.slug})
          </option>
        ))}
      </Select>
    </Field>
  );
}

interface ProfileFieldProps {
  options: ConnectOptions;
  set: SetOption;
  /** A slug not in the list is being typed ("Another slug…"). */
  typing: boolean;
  onPick: (value: string) => void;
  /** The router's Profiles switch (undefined while its settings load). */
  profilesOn: boolean | undefined;
}

/** profile=: a saved profile or a new slug, and read-only. */
function ProfileField({ options, set, typing, onPick, profilesOn }: ProfileFieldProps) {
  return (
    <Field
      label={
        <>
          Profile <code className="ml-1 font-mono text-[12px] font-normal text-zinc-400">profile=</code>
        </>
      }
      htmlFor="connect-profile"
      hint="Load a saved profile and save changes back at the end; a new slug starts an empty one. Read-only loads it without saving."
    >
      <div className="flex items-center gap-3">
        <ProfileSelect id="connect-profile" value={typing ? OTHER_PROFILE : options.profile} other="Another slug…" onChange={onPick} />
        <label className="flex shrink-0 items-center gap-2 text-[13px] text-zinc-600">
          <input
            type="checkbox"
            checked={options.readOnly}
            disabled={!options.profile.trim()}
            onChange={(e) => set('readOnly', e.target.checked)}
            className="size-4 rounded border-zinc-300 accent-accent-600"
          />
          Read-only
        </label>
      </div>
      {typing && (
        <Input
          aria-label="Profile slug"
          value={options.profile}
          onChange={(e) => set('profile', e.target.value)}
          placeholder="shop-login"
          className="font-mono text-[13px]"
          maxLength={64}
          spellCheck={false}
          autoComplete="off"
          autoFocus
        />
      )}
      <SwitchOffNote on={profilesOn} name="Profiles" param="profile=" />
    </Field>
  );
}

/** Said under an option whose router switch is off: the parameter is refused. */
function SwitchOffNote({ on, name, param }: { on: boolean | undefined; name: string; param: string }) {
  return on === false ? (
    <p className="text-[12px] text-amber-700">
      {name} is off for this router: {param} is refused with 409.
    </p>
  ) : null;
}
