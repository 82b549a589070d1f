// Inline messages: a server error under a form, a notice on a page, a banner across the shell.
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { cn } from './cn';
import { AlertTriangleIcon, CheckCircleIcon, InfoIcon, XCircleIcon } from './icons';

export type AlertTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<AlertTone, { box: string; icon: typeof InfoIcon; iconClass: string }> = {
  info: { box: 'border-accent-200 bg-accent-50 text-accent-800', icon: InfoIcon, iconClass: 'text-accent-500' },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-800', icon: CheckCircleIcon, iconClass: 'text-emerald-500' },
  warning: { box: 'border-amber-200 bg-amber-50 text-amber-900', icon: AlertTriangleIcon, iconClass: 'text-amber-500' },
  danger: { box: 'border-red-200 bg-red-50 text-red-800', icon: XCircleIcon, iconClass: 'text-red-500' },
};

export function Alert({
  tone = 'info',
  title,
  children,
  action,
  className,
}: {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const { box, icon: Icon, iconClass } = tones[tone];
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={cn('flex items-start gap-3 rounded-lg border px-3.5 py-3 text-sm', box, className)}>
      <Icon className={cn('mt-px size-[18px] shrink-0', iconClass)} />
      <div className="min-w-0 flex-1 space-y-0.5">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={title ? 'opacity-90' : undefined}>{children}</div>}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

/** The server's message for a failed request (a typed ApiClientError), or nothing. */
export function ErrorAlert({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  return (
    <Alert tone="danger" className={className}>
      {errorMessage(error)}
    </Alert>
  );
}
