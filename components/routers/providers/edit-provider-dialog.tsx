'use client';
// Edit a provider's name and routing fields (PATCH /v1/providers/:slug): only what changed is sent.
import { useState } from 'react';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { useUpdateProvider, type Provider } from '@/lib/client/providers';
import { updateProviderSchema } from '@/lib/providers/schemas';
import { ErrorAlert } from '../../ui/alert';
import { FormDialog } from '../../ui/dialog';
import { TextField } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { useToast } from '../../ui/toast';
import { numberField, providerErrorFields, RoutingFields, without, type RoutingValues } from './form-fields';

const PROFILE_HINT = 'Only sessions using this profile come here; empty takes every session.';

export function EditProviderDialog({ routerId, provider, onClose }: { routerId: string; provider: Provider | null; onClose: () => void }) {
  return provider ? <EditProviderForm key={provider.id} routerId={routerId} provider={provider} onClose={onClose} /> : null;
}

/** The form's values and errors, and the save: only what changed is sent, and nothing changed just closes. */
function useEditProviderForm(routerId: string, provider: Provider, onClose: () => void) {
  const update = useUpdateProvider(routerId);
  const toast = useToast();
  const [name, setName] = useState(provider.name);
  const [enabled, setEnabled] = useState(provider.enabled);
  const [routing, setRouting] = useState<RoutingValues>({
    priority: String(provider.priority),
    weight: String(provider.weight),
    maxConcurrent: provider.maxConcurrent === null ? '' : String(provider.maxConcurrent),
    profile: provider.profile ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [placed, setPlaced] = useState(false);

  const submit = () => {
    const changes = changesOf(provider, { name, enabled, routing });
    const parsed = validate(updateProviderSchema, changes);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    if (Object.keys(parsed.data).length === 0) return onClose();
    update.mutate(
      { slug: provider.slug, ...parsed.data },
      {
        onSuccess: (saved) => {
          toast(`Saved ${saved.name}`);
          onClose();
        },
        onError: (error) => {
          const fields = providerErrorFields(error, ['name', 'priority', 'weight', 'maxConcurrent', 'profile', 'enabled']);
          setErrors(fields ?? {});
          setPlaced(fields !== null);
        },
      },
    );
  };

  const changeName = (value: string) => {
    setName(value);
    setErrors(without('name'));
  };
  const changeRouting = (values: RoutingValues, field: keyof RoutingValues) => {
    setRouting(values);
    setErrors(without(field));
  };
  return { update, name, changeName, enabled, setEnabled, routing, changeRouting, errors, placed, submit };
}

function EditProviderForm({ routerId, provider, onClose }: { routerId: string; provider: Provider; onClose: () => void }) {
  const { update, name, changeName, enabled, setEnabled, routing, changeRouting, errors, placed, submit } = useEditProviderForm(routerId, provider, onClose);
  return (
    <FormDialog
      open
      onClose={onClose}
      size="lg"
      title={`Edit ${provider.name}`}
      description={
        <>
          Changes apply to new sessions at once; running sessions keep their provider. Slug{' '}
          <code className="font-mono text-[12px] text-zinc-700">{provider.slug}</code>.
        </>
      }
      onSubmit={submit}
      submitLabel="Save changes"
      pending={update.isPending}
    >
      <TextField label="Name" value={name} onChange={(e) => changeName(e.target.value)} error={errors.name} maxLength={100} autoFocus />
      <RoutingFields values={routing} errors={errors} profileHint={PROFILE_HINT} onChange={changeRouting} />
      <EnabledSwitch enabled={enabled} onChange={setEnabled} />
      {!placed && <ErrorAlert error={update.error} />}
    </FormDialog>
  );
}

/** What the form changed of the provider, as the API takes it (nothing else is sent). */
function changesOf(provider: Provider, form: { name: string; enabled: boolean; routing: RoutingValues }) {
  const { name, enabled, routing } = form;
  const maxConcurrent = numberField(routing.maxConcurrent) ?? null;
  const profile = routing.profile.trim() || null;
  return {
    ...(name.trim() !== provider.name ? { name: name.trim() } : {}),
    ...(routing.priority !== String(provider.priority) ? { priority: numberField(routing.priority) ?? '' } : {}),
    ...(routing.weight !== String(provider.weight) ? { weight: numberField(routing.weight) ?? '' } : {}),
    ...(maxConcurrent !== provider.maxConcurrent ? { maxConcurrent } : {}),
    ...(profile !== provider.profile ? { profile } : {}),
    ...(enabled !== provider.enabled ? { enabled } : {}),
  };
}

function EnabledSwitch({ enabled, onChange }: { enabled: boolean; onChange: (enabled: boolean) => void }) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
      <label htmlFor="provider-enabled" className="text-sm">
        <span className="block font-medium text-zinc-800">Enabled</span>
        <span className="block text-[12px] text-zinc-500">A disabled provider gets no new sessions; running ones continue.</span>
      </label>
      <Switch id="provider-enabled" checked={enabled} onChange={onChange} />
    </div>
  );
}
