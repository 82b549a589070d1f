'use client';
// Create or edit a webhook: label, address, router, events (all, or a chosen set), active.
import { useId, useState } from 'react';
import { createWebhookSchema, updateWebhookSchema } from '@/lib/webhooks/schemas';
import { useCreateWebhook, useUpdateWebhook, type Webhook } from '@/lib/client/webhooks';
import { useMe, type Me } from '@/lib/client/me';
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

/** The form's state: the values as typed, field errors, and save (create, or update when editing). */
function useWebhookForm(webhook: Webhook | undefined, onSaved: (webhook: Webhook, created: boolean) => void) {
  const editing = webhook !== undefined;
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = editing ? update : create;
  const routers = useMe().data?.routers ?? [];
  const fields = useWebhookFields(webhook);
  const { values, errors, setErrors } = fields;

  const submit = () => {
    if (!values.allEvents && values.events.length === 0) return setErrors({ events: 'Choose at least one event, or receive every event' });
    const { label, url, routerId, allEvents, events, active } = values;
    const chosen = allEvents ? [] : ACCEPTED_EVENTS.filter((e) => events.includes(e));
    const body = { label, events: chosen, routerInstanceId: routerId || null, ...(editing ? { active } : {}), ...(url.trim() || !editing ? { url } : {}) };
    const onError = (error: unknown) => setErrors(fieldErrorsFromApi(error, FIELDS) ?? {});
    if (editing) {
      const parsed = validate(updateWebhookSchema, body);
      if (!parsed.ok) return setErrors(parsed.errors);
      setErrors({});
      update.mutate({ id: webhook.id, ...parsed.data }, { onSuccess: (saved) => onSaved(saved, false), onError });
    } else {
      const parsed = validate(createWebhookSchema, body);
      if (!parsed.ok) return setErrors(parsed.errors);
      setErrors({});
      create.mutate(parsed.data, { onSuccess: (saved) => onSaved(saved, true), onError });
    }
  };

  const shownErrors = Object.keys(errors).some((k) => (FIELDS as readonly string[]).includes(k.split('.')[0]!));
  return { ...fields, mutation, routers, submit, shownErrors };
}

/** The values as typed and their field errors; a change to a field clears its error. */
function useWebhookFields(webhook: Webhook | undefined) {
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
  const change = (field: string, set: (value: string) => void) => (value: string) => {
    edited(field);
    set(value);
  };
  const toggle = (event: string) => {
    edited('events');
    setEvents((list) => (list.includes(event) ? list.filter((e) => e !== event) : [...list, event]));
  };
  const everyEvent = () => {
    edited('events');
    setAllEvents(true);
  };

  const values = { label, url, routerId, allEvents, events, active };
  const setters = { label: change('label', setLabel), url: change('url', setUrl), routerId: change('routerInstanceId', setRouterId), setActive };
  return { values, setters, everyEvent, someEvents: () => setAllEvents(false), toggle, errors, setErrors, routerFieldId, eventsId };
}

function WebhookForm({ webhook, onClose, onSaved }: { webhook?: Webhook; onClose: () => void; onSaved: (webhook: Webhook, created: boolean) => void }) {
  const editing = webhook !== undefined;
  const { mutation, routers, values, setters, everyEvent, someEvents, toggle, errors, routerFieldId, eventsId, submit, shownErrors } = useWebhookForm(
    webhook,
    onSaved,
  );
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
        value={values.label}
        onChange={(e) => setters.label(e.target.value)}
        error={errors.label}
        placeholder="Ops alerts"
        maxLength={100}
        autoFocus
      />
      <AddressField webhook={webhook} value={values.url} error={errors.url} onChange={setters.url} />
      <RouterField id={routerFieldId} routers={routers} value={values.routerId} error={errors.routerInstanceId} onChange={setters.routerId} />
      <EventsFieldset
        id={eventsId}
        allEvents={values.allEvents}
        events={values.events}
        error={errors.events}
        onEvery={everyEvent}
        onSome={someEvents}
        onToggle={toggle}
      />
      {editing && <ActiveField active={values.active} onChange={setters.setActive} />}
      {/* An error placed on fields stays off the alert, also once those fields are edited. */}
      {!shownErrors && !fieldErrorsFromApi(mutation.error, FIELDS) && <ErrorAlert error={mutation.error} />}
    </FormDialog>
  );
}

/** The endpoint's address; when editing, the current one is the placeholder and an empty field keeps it. */
function AddressField({ webhook, value, error, onChange }: { webhook?: Webhook; value: string; error: string | undefined; onChange: (value: string) => void }) {
  const editing = webhook !== undefined;
  return (
    <TextField
      label="Endpoint URL"
      type="url"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      placeholder={editing ? webhook.url : 'https://example.com/hooks/browser-router?token=…'}
      hint={
        editing
          ? 'Leave empty to keep the current address.'
          : 'Deliveries are not signed: put a secret in the URL (e.g. ?token=…). It is stored encrypted and shown masked.'
      }
      spellCheck={false}
      autoComplete="off"
    />
  );
}

/** Which router's sessions it hears about, or all of them. */
function RouterField({
  id,
  routers,
  value,
  error,
  onChange,
}: {
  id: string;
  routers: Me['routers'];
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Field label="Router" htmlFor={id} error={error}>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All routers</option>
        {routers.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Shown when editing: a paused webhook sends nothing and drops its pending retries. */
function ActiveField({ active, onChange }: { active: boolean; onChange: (active: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-zinc-800">
      <input type="checkbox" checked={active} onChange={(e) => onChange(e.target.checked)} className="accent-accent-600" />
      Active <span className="text-zinc-500">(when off, nothing is sent and pending retries are dropped)</span>
    </label>
  );
}

/** Every event (including ones added later), or only the ticked ones; the hint below turns into the error. */
function EventsFieldset({
  id,
  allEvents,
  events,
  error,
  onEvery,
  onSome,
  onToggle,
}: {
  id: string;
  allEvents: boolean;
  events: string[];
  error: string | undefined;
  onEvery: () => void;
  onSome: () => void;
  onToggle: (event: string) => void;
}) {
  return (
    <fieldset aria-describedby={id} className="space-y-2">
      <legend className="mb-1.5 text-[13px] font-medium text-zinc-700">Events</legend>
      <label className="flex items-center gap-2 text-sm text-zinc-800">
        <input type="radio" name="event-mode" checked={allEvents} onChange={onEvery} className="accent-accent-600" />
        Every event, including ones added later
      </label>
      <label className="flex items-center gap-2 text-sm text-zinc-800">
        <input type="radio" name="event-mode" checked={!allEvents} onChange={onSome} className="accent-accent-600" />
        Only these events
      </label>
      {!allEvents && (
        <div className="grid gap-1.5 rounded-lg border border-zinc-200 p-3 sm:grid-cols-2">
          {ACCEPTED_EVENTS.map((event) => (
            <label key={event} className="flex items-start gap-2 text-[13px] text-zinc-700">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={() => onToggle(event)}
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
      <p id={id} className={error ? 'text-[13px] text-red-600' : 'text-[13px] text-zinc-500'} role={error ? 'alert' : undefined}>
        {error ?? 'Only session.ended and session.error are sent today; the others are accepted so your configuration is ready when they are.'}
      </p>
    </fieldset>
  );
}
