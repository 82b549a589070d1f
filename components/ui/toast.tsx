'use client';
// Short confirmations after an action ("Invitation sent"). Errors stay inline where they happened;
// toasts only confirm success. A longer message may ask to stay longer, so it can be read.
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { CheckCircleIcon } from './icons';

interface Toast {
  id: number;
  message: ReactNode;
}

type ShowToast = (message: ReactNode, options?: { durationMs?: number }) => void;

const ToastContext = createContext<ShowToast>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback<ShowToast>((message, options) => {
    const id = nextId++;
    setToasts((list) => [...list.slice(-2), { id, message }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), options?.durationMs ?? 4000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="pointer-events-none fixed right-4 bottom-4 z-50 flex flex-col items-end gap-2" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role="status"
            className="pointer-events-auto flex max-w-md animate-pop-in items-start gap-2.5 rounded-lg bg-zinc-900 px-3.5 py-2.5 text-sm text-white shadow-lg"
          >
            <CheckCircleIcon className="mt-0.5 size-4 shrink-0 text-emerald-400" />
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
