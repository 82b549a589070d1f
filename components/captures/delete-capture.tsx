'use client';
// Deleting a capture (a recording or a trace): a button, then a confirmation that says what goes
// for good and what stays. Owners and admins; the API refuses anyone else.
import { useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { TrashIcon } from '../ui/icons';
import { useToast } from '../ui/toast';

export interface DeleteCaptureProps {
  /** "recording" or "trace", in the title, the button and the toast. */
  noun: string;
  /** What goes and what stays, shown in the confirmation. */
  description: string;
  remove: () => Promise<unknown>;
  onDeleted?: () => void;
  /** An icon button (lists); its label names the capture. */
  compactLabel?: string;
}

export function DeleteCapture({ noun, description, remove, onDeleted, compactLabel }: DeleteCaptureProps) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  return (
    <>
      {compactLabel ? (
        <Button variant="danger-ghost" size="sm" onClick={() => setOpen(true)} aria-label={compactLabel} title="Delete">
          <TrashIcon />
        </Button>
      ) : (
        <Button variant="danger-secondary" size="sm" onClick={() => setOpen(true)}>
          <TrashIcon />
          Delete
        </Button>
      )}
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete this ${noun}?`}
        description={description}
        confirmLabel={`Delete ${noun}`}
        onConfirm={remove}
        onDone={() => {
          toast(`${Noun} deleted`);
          onDeleted?.();
        }}
      />
    </>
  );
}
