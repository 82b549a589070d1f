'use client';
// Create or edit a webhook: label, address, router, events (all, or a chosen set), active.
import { useId, useState } from 'react';
import { createWebhookSchema, updateWebhookSchema } from '@/lib/webhooks/schemas';
import { useCreateWebhook, useUpdateWebhook, type Webhook } from '@/lib/client/webhooks';
import { useMe } from '@/lib/client/me';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { ErrorAlert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { FormDialog } from '../ui/dialog';
import { Field, Select, TextField } from '../ui/input';
import { ACCEPTED_EVENTS, eventDescriptions, isSentEvent } from './event-labels';

const FIELDS = ['label', 'url', 'events', 'routerInstanceId', 'active'] as const;

export function WebhookFormDialog({
  open,
  webhook,
  onClose,
  onSaved,
}: {
  open: boolean;
  webhook?: Webhook;
  onClose: () => void;
  onSaved: (webhook: Webhook, created: boolean) => void;
}) {
  return open ? <WebhookForm webhook={webhook} onClose={onClose} onSaved={onSaved} /> : null;
}

function WebhookForm({ webhook, onClose, onSaved }: { webhook?: Webhook; onClose: () => void; onSaved: (webhook: Webhook, created: boolean) => void }) {
  const editing = webhook !== undefined;
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = editing ? update : create;
  const routers = useMe().data?.routers ?? [];
  const [label, setLabel] = useState(webhook?.label ?? '');
  const [url, setUrl] = useState('');
  const [routerId, setRouterId] = useState(webhook?.routerInstanceId ?? '');
  const [allEvents, setAllEvents] = useState((webhook?.events.length ?? 0) === 0);
  const [events, setEvents] = useState<string[]>(webhook?.events.length ? webhook.events : ['session.ended', 'session.error']);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const routerFieldId = useId();
  const eventsId = useId();

  // An error stays until its field changes.
  const edited = (field: string) => setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => key.split('.')[0] !== field)));
  const toggle = (event: string) => {
    edited('events');
    setEvents((list) => (list.includes(event) ? list.filter((e) => e !== event) : [...list, event]));
  };

  const submit = () => {
    if (!allEvents && events.length === 0) return setErrors({ events: 'Choose at least one event, or receive every event' });
    const chosen = allEvents ? [] : ACCEPTED_EVENTS.filter((e) => events.includes(e));
    const values = { label, events: chosen, routerInstanceId: routerId || null, ...(editing ? { active } : {}), ...(url.trim() || !editing ? { url } : {}) };
    const onError = (error: unknown) => setErrors(fieldErrorsFromApi(error, FIELDS) ?? {});
    if (editing) {
      const parsed = validate(updateWebhookSchema, values);
      if (!parsed.ok) return setErrors(parsed.errors);
      setErrors({});
      update.mutate({ id: webhook.id, ...parsed.data }, { onSuccess: (saved) => onSaved(saved, false), onError });
    } else {
      const parsed = validate(createWebhookSchema, values);
      if (!parsed.ok) return setErrors(parsed.errors);
      setErrors({});
      create.mutate(parsed.data, { onSuccess: (saved) => onSaved(saved, true), onError });
    }
  };

  const shownErrors = Object.keys(errors).some((k) => (FIELDS as readonly string[]).includes(k.split('.')[0]!));
  return (
    <FormDialog
      open
      size="lg"
      onClose={onClose}
      title={editing ? `Edit “${webhook.label}”` : 'Add webhook'}
      description="We POST a JSON body to this address when an event happens, and retry 3 times (after 0.5, 2 and 8 s) until it answers 2xx within 5 seconds."
      onSubmit={submit}
      submitLabel={editing ? 'Save changes' : 'Add webhook'}
      pending={mutation.isPending}
    >
      <TextField
        label="Label"
        value={label}
        onChange={(e) => {
          edited('label');
          setLabel(e.target.value);
        }}
        error={errors.label}
        placeholder="Ops alerts"
        maxLength={100}
        autoFocus
      />
      <TextField
        label="Endpoint URL"
        type="url"
        value={url}
        onChange={(e) => {
          edited('url');
          setUrl(e.target.value);
        }}
        error={errors.url}
        placeholder={editing ? webhook.url : 'https://example.com/hooks/browser-router?token=…'}
        hint={
          editing
            ? 'Leave empty to keep the current address.'
            : 'Deliveries are not signed: put a secret in the URL (e.g. ?token=…). It is stored encrypted and shown masked.'
        }
        spellCheck={false}
        autoComplete="off"
      />
      <Field label="Router" htmlFor={routerFieldId} error={errors.routerInstanceId}>
        <Select
          id={routerFieldId}
          value={routerId}
          onChange={(e) => {
            edited('routerInstanceId');
            setRouterId(e.target.value);
          }}
        >
          <option value="">All routers</option>
          {routers.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset aria-describedby={eventsId} className="space-y-2">
        <legend className="mb-1.5 text-[13px] font-medium text-zinc-700">Events</legend>
        <label className="flex items-center gap-2 text-sm text-zinc-800">
          <input
            type="radio"
            name="event-mode"
            checked={allEvents}
            onChange={() => {
              edited('events');
              setAllEvents(true);
            }}
            className="accent-accent-600"
          />
          Every event, including ones added later
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-800">
          <input type="radio" name="event-mode" checked={!allEvents} onChange={() => setAllEvents(false)} className="accent-accent-600" />
          Only these events
        </label>
        {!allEvents && (
          <div className="grid gap-1.5 rounded-lg border border-zinc-200 p-3 sm:grid-cols-2">
            {ACCEPTED_EVENTS.map((event) => (
              <label key={event} className="flex items-start gap-2 text-[13px] text-zinc-700">
                <input
                  type="checkbox"
                  checked={events.includes(event)}
                  onChange={() => toggle(event)}
                  className="mt-0.5 accent-accent-600"
                  aria-label={event}
                />
                <span className="min-w-0">
                  <code className="font-mono text-[12px] text-zinc-900">{event}</code>
                  {!isSentEvent(event) && <Badge className="ml-1.5 scale-90">not sent yet</Badge>}
                  <span className="block text-zinc-500">{eventDescriptions[event]}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        <p id={eventsId} className={errors.events ? 'text-[13px] text-red-600' : 'text-[13px] text-zinc-500'} role={errors.events ? 'alert' : undefined}>
          {errors.events ?? 'Only session.ended and session.error are sent today; the others are accepted so your configuration is ready when they are.'}
        </p>
      </fieldset>
      {editing && (
        <label className="flex items-center gap-2 text-sm text-zinc-800">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} className="accent-accent-600" />
          Active <span className="text-zinc-500">(when off, nothing is sent and pending retries are dropped)</span>
        </label>
      )}
      {/* An error placed on fields stays off the alert, also once those fields are edited. */}
      {!shownErrors && !fieldErrorsFromApi(mutation.error, FIELDS) && <ErrorAlert error={mutation.error} />}
    </FormDialog>
  );
}
