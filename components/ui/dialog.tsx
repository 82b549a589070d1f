'use client';
// Modal dialogs on the native <dialog> element: focus trapping, Escape and the top layer come
// from the browser. Content mounts only while open, so every opening starts from a clean state.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorAlert } from './alert';
import { Button } from './button';
import { cn } from './cn';
import { Input } from './input';
import { XIcon } from './icons';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** Wraps body and footer in a form, so Enter submits. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}

export function Dialog(props: DialogProps) {
  return props.open ? <OpenDialog {...props} /> : null;
}

const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-xl' };

function OpenDialog({ onClose, title, description, children, footer, size = 'md', onSubmit }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const content = (
    <>
      <DialogHead title={title} titleId={titleId} description={description} descriptionId={descriptionId} onClose={onClose} />
      {children && <div className="space-y-4 px-6 py-4">{children}</div>}
      {footer && <div className="flex justify-end gap-2 border-t border-zinc-100 bg-zinc-50/70 px-6 py-3.5">{footer}</div>}
    </>
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // A press on the backdrop lands on the <dialog> itself, outside its content box.
        if (event.target === ref.current) onClose();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] overflow-y-auto overscroll-contain rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/30 backdrop:backdrop-blur-[1px] open:animate-pop-in',
        widths[size],
      )}
    >
      {onSubmit ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event);
          }}
        >
          {content}
        </form>
      ) : (
        content
      )}
    </dialog>
  );
}

/** The title with the close button, and the description below it. */
function DialogHead({
  title,
  titleId,
  description,
  descriptionId,
  onClose,
}: {
  title: ReactNode;
  titleId: string;
  description: ReactNode;
  descriptionId: string;
  onClose: () => void;
}) {
  return (
    <div className="px-6 pt-5 pb-1">
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-base font-semibold text-zinc-900">
          {title}
        </h2>
        <button type="button" onClick={onClose} className="-mt-1 -mr-2 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-600" aria-label="Close">
          <XIcon className="size-4" />
        </button>
      </div>
      {description && (
        <div id={descriptionId} className="mt-1.5 text-sm text-zinc-500">
          {description}
        </div>
      )}
    </div>
  );
}

export interface FormDialogProps extends Omit<DialogProps, 'footer' | 'onSubmit'> {
  /** The submit button and Enter in a field. */
  onSubmit: () => void;
  submitLabel: ReactNode;
  /** The request is running: the submit button shows a spinner and takes no second press. */
  pending: boolean;
}

/** A create or edit form: the usual footer of Cancel (the same as closing) and one primary submit button. */
export function FormDialog({ onSubmit, submitLabel, pending, ...props }: FormDialogProps) {
  return (
    <Dialog
      {...props}
      onSubmit={onSubmit}
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" loading={pending}>
            {submitLabel}
          </Button>
        </>
      }
    />
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  /** Runs the action; a thrown error (the server's) is shown in the dialog, success closes it. */
  onConfirm: () => Promise<unknown>;
  /** Typed confirmation: the button stays disabled until the user types exactly this. */
  requireText?: string;
  /** Called after a successful confirmation, once the dialog has closed. */
  onDone?: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  return props.open ? <OpenConfirmDialog {...props} /> : null;
}

function OpenConfirmDialog({ open, onClose, title, description, children, confirmLabel, tone = 'danger', onConfirm, requireText, onDone }: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const inputId = useId();
  const blocked = requireText !== undefined && typed.trim() !== requireText;

  const confirm = async () => {
    if (blocked || pending) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
      onDone?.();
    } catch (thrown) {
      setError(thrown);
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size="md"
      onSubmit={() => void confirm()}
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} loading={pending} disabled={blocked}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children || requireText !== undefined || error ? (
        <>
          {children}
          {requireText !== undefined && (
            <div className="space-y-1.5">
              <label htmlFor={inputId} className="block text-[13px] text-zinc-600">
                Type <span className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[12px] text-zinc-900">{requireText}</span> to confirm
              </label>
              <Input id={inputId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} autoFocus />
            </div>
          )}
          <ErrorAlert error={error} />
        </>
      ) : null}
    </Dialog>
  );
}
