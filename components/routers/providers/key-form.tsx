'use client';
// The key form of "Add provider": a cloud-browser vendor (adapter-one or adapter-two), its API
// key with a "Verify key" check that starts no browser, the adapter's options, routing fields.
import { useState } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { validate } from '@/lib/client/forms';
import { useVerifyKey, type Provider } from '@/lib/client/providers';
import {
  ADAPTER_ONE_REGIONS, ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT, ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT, createProviderSchema, verifyKeySchema, type AdapterKind,
} from '@/lib/providers/schemas';
import { Button } from '../../ui/button';
import { Field, Input, Select, TextField } from '../../ui/input';
import { KeyIcon } from '../../ui/icons';
import { Segmented } from '../../ui/tabs';
import { Switch } from '../../ui/switch';
import { CheckResult, numberField, routingInput, useAddProviderForm, without } from './form-fields';

export const adapters: Record<AdapterKind, { label: string; description: string }> = {
  'adapter-one': { label: 'Adapter one', description: 'Kernel-style browsers API. A disconnected browser is kept 15 minutes for a reconnect.' },
  'adapter-two': { label: 'Adapter two', description: 'Browser Use-style sessions. Stopped on disconnect, so unused prepaid time is refunded.' },
};

export function useKeyForm(routerId: string, onAdded: (provider: Provider) => void) {
  const form = useAddProviderForm(routerId, onAdded);
  const { slug, name, routing, errors, setErrors } = form;
  const verify = useVerifyKey(routerId);
  const [adapterKind, setAdapterKind] = useState<AdapterKind>('adapter-one');
  const [apiKey, setApiKey] = useState('');
  const [region, setRegion] = useState('');
  const [stealth, setStealth] = useState(false);
  const [timeoutSeconds, setTimeoutSeconds] = useState(String(ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT));
  const [timeoutMinutes, setTimeoutMinutes] = useState(String(ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT));
  const [proxyCountryCode, setProxyCountryCode] = useState('');

  const options = () =>
    adapterKind === 'adapter-one'
      ? { ...(region ? { region } : {}), stealth, ...(numberField(timeoutSeconds) !== undefined ? { timeoutSeconds: numberField(timeoutSeconds) } : {}) }
      : { ...(numberField(timeoutMinutes) !== undefined ? { timeoutMinutes: numberField(timeoutMinutes) } : {}), ...(proxyCountryCode.trim() ? { proxyCountryCode: proxyCountryCode.trim() } : {}) };

  const runVerify = () => {
    const parsed = validate(verifyKeySchema, { adapterKind, credentials: { apiKey } });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    verify.mutate(parsed.data);
  };

  const submit = () => {
    const input = { adapterKind, slug: slug.trim(), ...(name.trim() ? { name: name.trim() } : {}), credentials: { apiKey }, options: options(), ...routingInput(routing) };
    const parsed = validate(createProviderSchema, input);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    form.send(parsed.data, [
      'slug', 'name', 'adapterKind', 'credentials.apiKey', 'options.region', 'options.stealth', 'options.timeoutSeconds', 'options.timeoutMinutes', 'options.proxyCountryCode',
      'priority', 'weight', 'maxConcurrent', 'profile',
    ]);
  };

  const changeKey = (apply: () => void) => {
    apply();
    if (verify.data || verify.error) verify.reset();
  };

  const verifyResult = verify.isPending ? (
    <CheckResult state="pending">Asking the vendor about this key…</CheckResult>
  ) : verify.data ? (
    <CheckResult state="ok" testId="verify-result">Key accepted by {verify.data.provider}.</CheckResult>
  ) : isApiError(verify.error, 'provider_rejected_key') ? (
    <CheckResult state="failed" testId="verify-result">The vendor rejected this key: {verify.error.message}</CheckResult>
  ) : verify.error ? (
    <CheckResult state="failed" testId="verify-result">{isApiError(verify.error, 'provider_unreachable') ? "Couldn't reach the vendor: " : ''}{(verify.error as Error).message}</CheckResult>
  ) : null;

  const content = (
    <>
      <Segmented<AdapterKind>
        label="Vendor"
        value={adapterKind}
        onChange={(kind) => changeKey(() => setAdapterKind(kind))}
        options={(Object.keys(adapters) as AdapterKind[]).map((kind) => ({ value: kind, label: adapters[kind].label, description: adapters[kind].description }))}
      />
      {form.nameFields({ slugPlaceholder: adapterKind === 'adapter-one' ? 'kernel-us' : 'browser-use', namePlaceholder: adapters[adapterKind].label })}
      <Field label="API key" htmlFor="provider-api-key" error={errors['credentials.apiKey']} hint={!verifyResult && 'Checked with the vendor before saving, without starting a browser. Stored encrypted, never shown again.'}>
        <div className="flex gap-2">
          <Input id="provider-api-key" type="password" value={apiKey} onChange={(e) => changeKey(() => { setApiKey(e.target.value); setErrors(without('credentials.apiKey')); })} invalid={Boolean(errors['credentials.apiKey'])} autoComplete="off" spellCheck={false} className="font-mono text-[13px]" />
          <Button onClick={runVerify} loading={verify.isPending} disabled={!apiKey.trim()}>
            {!verify.isPending && <KeyIcon />}
            Verify key
          </Button>
        </div>
        {!errors['credentials.apiKey'] && verifyResult}
      </Field>

      <fieldset className="space-y-3">
        <legend className="mb-2 text-[13px] font-medium text-zinc-900">Vendor options</legend>
        {adapterKind === 'adapter-one' ? (
          <div className="grid grid-cols-2 gap-3">
            <Field label="Region" htmlFor="adapter-region" error={errors['options.region']}>
              <Select id="adapter-region" value={region} onChange={(e) => setRegion(e.target.value)}>
                <option value="">Vendor default</option>
                {ADAPTER_ONE_REGIONS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </Select>
            </Field>
            <TextField label="Inactivity timeout (s)" type="number" min={10} max={259_200} value={timeoutSeconds} onChange={(e) => { setTimeoutSeconds(e.target.value); setErrors(without('options.timeoutSeconds')); }} error={errors['options.timeoutSeconds']} hint="10–259,200 seconds" />
            <div className="col-span-2 flex items-center justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
              <label htmlFor="adapter-stealth" className="text-sm">
                <span className="block font-medium text-zinc-800">Stealth mode</span>
                <span className="block text-[12px] text-zinc-500">Ask the vendor for its anti-detection browser.</span>
              </label>
              <Switch id="adapter-stealth" checked={stealth} onChange={setStealth} />
            </div>
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-3">
            <TextField label="Session timeout (min)" type="number" min={1} max={240} value={timeoutMinutes} onChange={(e) => { setTimeoutMinutes(e.target.value); setErrors(without('options.timeoutMinutes')); }} error={errors['options.timeoutMinutes']} hint="1–240 minutes" />
            <TextField
              label={<>Proxy country <span className="font-normal text-zinc-400">(optional)</span></>}
              value={proxyCountryCode}
              onChange={(e) => { setProxyCountryCode(e.target.value); setErrors(without('options.proxyCountryCode')); }}
              error={errors['options.proxyCountryCode']}
              placeholder="Off"
              hint="Two lowercase letters, e.g. de"
              maxLength={2}
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        )}
      </fieldset>

      {form.routingFields}
    </>
  );

  const reset = () => {
    form.reset();
    setApiKey('');
    setRegion('');
    setStealth(false);
    setTimeoutSeconds(String(ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT));
    setTimeoutMinutes(String(ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT));
    setProxyCountryCode('');
    verify.reset();
  };
  return { content, submit, reset, pending: form.pending, error: form.error };
}
