'use client';
// The routing strategy and every numeric setting of the router, each with its range and default
// (the PATCH table of docs/api.md, the same zod schema the server parses with). Only changed fields are sent.
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useActiveWorkspace } from '@/lib/client/me';
import { useUpdateRouter, type Router } from '@/lib/client/routers';
import { updateRouterSchema } from '@/lib/routers/schemas';
import { ErrorAlert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardFooter, CardHeader } from '../../ui/card';
import { Field, Select, TextField } from '../../ui/input';
import { useToast } from '../../ui/toast';
import { numberField, without } from '../providers/form-fields';
import { ROUTER_STRATEGIES, strategies, type Strategy } from '../strategies';

type NumericField =
  | 'connectionTimeoutMs'
  | 'sessionIdleTimeoutMs'
  | 'healthCheckIntervalMs'
  | 'queueMaxSize'
  | 'queueTimeoutMs'
  | 'cooldownDefaultMs'
  | 'cooldownFailureThreshold'
  | 'cooldownMinRequestVolume';

interface NumericSpec {
  label: string;
  min: number;
  max: number;
  default: number;
  unit?: 'ms' | 'fraction';
  step?: number;
  help: string;
}

// Ranges and defaults as in the spec; the schema enforces the same ones.
const numeric: Record<NumericField, NumericSpec> = {
  connectionTimeoutMs: {
    label: 'Connection timeout',
    min: 1_000,
    max: 30_000,
    default: 15_000,
    unit: 'ms',
    help: 'How long a provider may take to accept the WebSocket before the next one is tried.',
  },
  sessionIdleTimeoutMs: {
    label: 'Idle timeout',
    min: 10_000,
    max: 840_000,
    default: 300_000,
    unit: 'ms',
    help: 'A session with no traffic either way for this long is closed.',
  },
  healthCheckIntervalMs: {
    label: 'Health check interval',
    min: 5_000,
    max: 3_600_000,
    default: 30_000,
    unit: 'ms',
    help: 'How often each provider is checked (no browser is started).',
  },
  queueMaxSize: { label: 'Queue size', min: 0, max: 10_000, default: 50, help: 'Connections that may wait for a free provider; 0 turns the queue off.' },
  queueTimeoutMs: {
    label: 'Queue timeout',
    min: 0,
    max: 86_400_000,
    default: 30_000,
    unit: 'ms',
    help: 'How long a connection waits before it is refused with 429.',
  },
  cooldownDefaultMs: { label: 'Cooldown', min: 0, max: 86_400_000, default: 30_000, unit: 'ms', help: 'How long a failing provider is skipped.' },
  cooldownFailureThreshold: {
    label: 'Failure threshold',
    min: 0,
    max: 1,
    default: 0.5,
    unit: 'fraction',
    step: 0.05,
    help: 'Share of failed connects within 60 s that starts a cooldown.',
  },
  cooldownMinRequestVolume: { label: 'Minimum volume', min: 0, max: 1_000_000, default: 3, help: 'Connects needed within 60 s before the threshold applies.' },
};

const groups: Array<{ title: string; fields: NumericField[] }> = [
  { title: 'Connections', fields: ['connectionTimeoutMs', 'sessionIdleTimeoutMs', 'healthCheckIntervalMs'] },
  { title: 'Queue', fields: ['queueMaxSize', 'queueTimeoutMs'] },
  { title: 'Cooldown', fields: ['cooldownDefaultMs', 'cooldownFailureThreshold', 'cooldownMinRequestVolume'] },
];

const fmt = (n: number) => n.toLocaleString('en');

/** 90000 → "1.5 min": a reading aid beside raw milliseconds. */
export function humanMs(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${+(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}

function rangeHint(spec: NumericSpec, text: string): string {
  const unit = spec.unit === 'ms' ? ' ms' : '';
  const range = `${fmt(spec.min)}–${fmt(spec.max)}${unit} · default ${fmt(spec.default)}`;
  const value = Number(text);
  return spec.unit === 'ms' && text.trim() !== '' && Number.isFinite(value) && value >= 1_000 ? `${range} · now ${humanMs(value)}` : range;
}

const valuesOf = (router: Router) =>
  Object.fromEntries((Object.keys(numeric) as NumericField[]).map((field) => [field, String(router[field])])) as Record<NumericField, string>;

/** The form's state: the values as typed, what changed, field errors, reset and save. */
function useRoutingForm(router: Router) {
  const update = useUpdateRouter(router.id);
  const toast = useToast();
  const [strategy, setStrategy] = useState<Strategy>(router.strategy as Strategy);
  const [values, setValues] = useState(() => valuesOf(router));
  const [errors, setErrors] = useState<FieldErrors>({});

  const changes = {
    ...(strategy !== router.strategy ? { strategy } : {}),
    ...Object.fromEntries(
      (Object.keys(numeric) as NumericField[]).filter((f) => values[f] !== String(router[f])).map((f) => [f, numberField(values[f]) ?? '']),
    ),
  };
  const dirty = Object.keys(changes).length > 0;

  const reset = () => {
    setStrategy(router.strategy as Strategy);
    setValues(valuesOf(router));
    setErrors({});
    update.reset();
  };
  const submit = () => {
    // The schema would call an empty field "expected number"; say what to do instead.
    const empty = (Object.keys(numeric) as NumericField[]).filter((f) => values[f].trim() === '');
    if (empty.length > 0) return setErrors(Object.fromEntries(empty.map((f) => [f, 'Enter a number'])));
    const parsed = validate(updateRouterSchema, changes);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setStrategy(saved.strategy as Strategy);
        setValues(valuesOf(saved));
        toast('Routing settings saved');
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['strategy', ...Object.keys(numeric)]) ?? {}),
    });
  };
  const change = (field: NumericField, text: string) => {
    setValues((v) => ({ ...v, [field]: text }));
    setErrors(without(field));
  };
  return { update, strategy, setStrategy, values, change, errors, dirty, reset, submit };
}

export function RoutingCard({ router }: { router: Router }) {
  const { canManage } = useActiveWorkspace();
  const { update, strategy, setStrategy, values, change, errors, dirty, reset, submit } = useRoutingForm(router);
  const hasFieldError = Object.values(errors).some(Boolean);

  return (
    <Card aria-label="Routing">
      <CardHeader
        title="Routing"
        description="How this router picks a provider, fails over, queues and cools down. Changes apply to new connections at once, without a restart."
      />
      <form
        noValidate
        aria-label="Routing settings"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="space-y-6 px-5 py-5">
          <Field label="Strategy" htmlFor="router-strategy" error={errors.strategy} hint={strategies[strategy]?.description}>
            <Select id="router-strategy" value={strategy} onChange={(e) => setStrategy(e.target.value as Strategy)} disabled={!canManage} className="max-w-xs">
              {ROUTER_STRATEGIES.map((s) => (
                <option key={s} value={s}>
                  {strategies[s].label}
                </option>
              ))}
            </Select>
          </Field>
          {groups.map((group) => (
            <NumberGroup key={group.title} group={group} values={values} errors={errors} disabled={!canManage} onChange={change} />
          ))}
          {!hasFieldError && <ErrorAlert error={update.error} />}
        </div>
        {canManage && (
          <CardFooter>
            <span className="text-[13px] text-zinc-500">{dirty ? 'You have unsaved changes.' : 'Ranges are checked before anything is sent.'}</span>
            <div className="flex gap-2">
              <Button size="sm" onClick={reset} disabled={!dirty || update.isPending}>
                Reset
              </Button>
              <Button type="submit" size="sm" variant="primary" loading={update.isPending} disabled={!dirty}>
                Save routing settings
              </Button>
            </div>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

interface NumberGroupProps {
  group: (typeof groups)[number];
  values: Record<NumericField, string>;
  errors: FieldErrors;
  disabled: boolean;
  onChange: (field: NumericField, text: string) => void;
}

/** One group of the numeric settings (failover, queue, cooldown…), each with its range and what it does. */
function NumberGroup({ group, values, errors, disabled, onChange }: NumberGroupProps) {
  return (
    <fieldset className="border-t border-zinc-100 pt-5">
      <legend className="sr-only">{group.title}</legend>
      <div aria-hidden="true" className="mb-3 text-[13px] font-semibold text-zinc-900">
        {group.title}
      </div>
      <div className="grid gap-x-5 gap-y-4 md:grid-cols-3">
        {group.fields.map((field) => {
          const spec = numeric[field];
          return (
            <div key={field} className="space-y-1">
              <TextField
                label={
                  <>
                    {spec.label}
                    {spec.unit === 'ms' && <span className="font-normal text-zinc-400"> (ms)</span>}
                  </>
                }
                type="number"
                inputMode={spec.unit === 'fraction' ? 'decimal' : 'numeric'}
                min={spec.min}
                max={spec.max}
                step={spec.step ?? 1}
                value={values[field]}
                onChange={(e) => onChange(field, e.target.value)}
                error={errors[field] && `${errors[field]} (${rangeHint(spec, '').split(' · ')[0]})`}
                hint={rangeHint(spec, values[field])}
                disabled={disabled}
                name={field}
              />
              <p className="text-[12px] leading-snug text-zinc-400">{spec.help}</p>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
