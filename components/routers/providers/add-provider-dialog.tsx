'use client';
// "Add provider": a browser address or a cloud vendor key. Both forms keep their values while
// the user switches between them; the server tests the provider before it saves it.
import { useState } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import type { Provider } from '@/lib/client/providers';
import { Alert, ErrorAlert } from '../../ui/alert';
import { FormDialog } from '../../ui/dialog';
import { Segmented } from '../../ui/tabs';
import { useAddressForm } from './address-form';
import { useKeyForm } from './key-form';

type Kind = 'address' | 'key';

export function AddProviderDialog({
  routerId,
  open,
  onClose,
  onAdded,
}: {
  routerId: string;
  open: boolean;
  onClose: () => void;
  onAdded: (provider: Provider) => void;
}) {
  const [kind, setKind] = useState<Kind>('address');
  const added = (provider: Provider) => {
    close();
    onAdded(provider);
  };
  const address = useAddressForm(routerId, added);
  const key = useKeyForm(routerId, added);
  const form = kind === 'address' ? address : key;

  function close() {
    address.reset();
    key.reset();
    setKind('address');
    onClose();
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      size="lg"
      title="Add provider"
      description="Where this router gets its browsers. The provider is tested before it is saved; an address is also probed for what it supports."
      onSubmit={form.submit}
      submitLabel={form.pending ? (kind === 'address' ? 'Testing and probing…' : 'Checking the key…') : 'Add provider'}
      pending={form.pending}
    >
      <Segmented<Kind>
        label="Kind of provider"
        value={kind}
        onChange={setKind}
        options={[
          { value: 'address', label: 'Browser address', description: 'Any browser that speaks CDP over WebSocket.' },
          { value: 'key', label: 'Cloud vendor key', description: 'Browsers started through a vendor API.' },
        ]}
      />
      <div className="h-px bg-zinc-100" />
      {form.content}
      {isApiError(form.error, 'provider_calibrating') ? (
        <Alert tone="warning" title="The provider is still starting">
          It is a managed pool that has not launched its first browser yet. Try again in a few seconds.
        </Alert>
      ) : (
        <ErrorAlert error={form.error} />
      )}
    </FormDialog>
  );
}
