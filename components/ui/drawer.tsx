'use client';
// A panel that slides in from the right over the page (a session's details). Native <dialog>,
// like Dialog: Escape, focus and the top layer come from the browser.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { XIcon } from './icons';

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}

export function Drawer(props: DrawerProps) {
  return props.open ? <OpenDrawer {...props} /> : null;
}

function OpenDrawer({ onClose, title, description, children, footer }: DrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 flex h-full max-h-none w-full max-w-lg flex-col border-l border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/25 open:animate-fade-in"
    >
      <div className="flex items-start justify-between gap-4 border-b border-zinc-100 px-6 py-5">
        <div className="min-w-0 space-y-1">
          <h2 id={titleId} className="text-base font-semibold text-zinc-900">
            {title}
          </h2>
          {description && <div className="text-sm text-zinc-500">{description}</div>}
        </div>
        <button
          type="button"
          onClick={onClose}
          className="-mt-1 -mr-2 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-600"
          aria-label="Close panel"
        >
          <XIcon className="size-4" />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      {footer && <div className="flex justify-end gap-2 border-t border-zinc-100 bg-zinc-50/70 px-6 py-3.5">{footer}</div>}
    </dialog>
  );
}
