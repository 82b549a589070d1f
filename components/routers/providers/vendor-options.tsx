'use client';
// A cloud vendor's options in the key form of "Add provider" (key-form.tsx): adapter one's region,
// stealth and inactivity timeout, adapter two's session timeout and proxy country, as typed and
// as the API takes them. The bounds are the schema's (lib/providers/schemas.ts).
import { ADAPTER_ONE_REGIONS, ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT, ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT, type AdapterKind } from '@/lib/providers/schemas';
import type { FieldErrors } from '@/lib/client/forms';
import { Field, Select, TextField } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { numberField } from './form-fields';

/** The vendor options as typed (both vendors' fields: switching back keeps what was typed). */
export interface VendorOptionValues {
  region: string;
  stealth: boolean;
  timeoutSeconds: string;
  timeoutMinutes: string;
  proxyCountryCode: string;
}

export const defaultOptions: VendorOptionValues = {
  region: '',
  stealth: false,
  timeoutSeconds: String(ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT),
  timeoutMinutes: String(ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT),
  proxyCountryCode: '',
};

/** The options of `kind` as the API takes them. */
export function optionsInput(kind: AdapterKind, o: VendorOptionValues) {
  const seconds = numberField(o.timeoutSeconds);
  const minutes = numberField(o.timeoutMinutes);
  return kind === 'adapter-one'
    ? { ...(o.region ? { region: o.region } : {}), stealth: o.stealth, ...(seconds !== undefined ? { timeoutSeconds: seconds } : {}) }
    : { ...(minutes !== undefined ? { timeoutMinutes: minutes } : {}), ...(o.proxyCountryCode.trim() ? { proxyCountryCode: o.proxyCountryCode.trim() } : {}) };
}

interface OptionFieldsProps {
  values: VendorOptionValues;
  errors: FieldErrors;
  onChange: (change: Partial<VendorOptionValues>) => void;
}

interface VendorOptionsProps extends OptionFieldsProps {
  kind: AdapterKind;
}

/** The chosen vendor's options. */
export function VendorOptions({ kind, values, errors, onChange }: VendorOptionsProps) {
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-[13px] font-medium text-zinc-900">Vendor options</legend>
      <div className="grid grid-cols-2 gap-3">
        {kind === 'adapter-one' ? (
          <AdapterOneOptions values={values} errors={errors} onChange={onChange} />
        ) : (
          <AdapterTwoOptions values={values} errors={errors} onChange={onChange} />
        )}
      </div>
    </fieldset>
  );
}

/** Adapter one's options: region, inactivity timeout, stealth. */
function AdapterOneOptions({ values, errors, onChange }: OptionFieldsProps) {
  return (
    <>
      <Field label="Region" htmlFor="adapter-region" error={errors['options.region']}>
        <Select id="adapter-region" value={values.region} onChange={(e) => onChange({ region: e.target.value })}>
          <option value="">Vendor default</option>
          {ADAPTER_ONE_REGIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
      </Field>
      <TextField
        label="Inactivity timeout (s)"
        type="number"
        min={10}
        max={259_200}
        value={values.timeoutSeconds}
        onChange={(e) => onChange({ timeoutSeconds: e.target.value })}
        error={errors['options.timeoutSeconds']}
        hint="10–259,200 seconds"
      />
      <div className="col-span-2 flex items-center justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
        <label htmlFor="adapter-stealth" className="text-sm">
          <span className="block font-medium text-zinc-800">Stealth mode</span>
          <span className="block text-[12px] text-zinc-500">Ask the vendor for its anti-detection browser.</span>
        </label>
        <Switch id="adapter-stealth" checked={values.stealth} onChange={(stealth) => onChange({ stealth })} />
      </div>
    </>
  );
}

/** Adapter two's options: session timeout, proxy country. */
function AdapterTwoOptions({ values, errors, onChange }: OptionFieldsProps) {
  return (
    <>
      <TextField
        label="Session timeout (min)"
        type="number"
        min={1}
        max={240}
        value={values.timeoutMinutes}
        onChange={(e) => onChange({ timeoutMinutes: e.target.value })}
        error={errors['options.timeoutMinutes']}
        hint="1–240 minutes"
      />
      <TextField
        label={
          <>
            Proxy country <span className="font-normal text-zinc-400">(optional)</span>
          </>
        }
        value={values.proxyCountryCode}
        onChange={(e) => onChange({ proxyCountryCode: e.target.value })}
        error={errors['options.proxyCountryCode']}
        placeholder="Off"
        hint="Two lowercase letters, e.g. de"
        maxLength={2}
        spellCheck={false}
        autoComplete="off"
      />
    </>
  );
}
