import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { Button } from './button';
import { cn } from './cn';
import { AlertTriangleIcon } from './icons';

/** Nothing to show yet: an icon, a sentence, and usually the action that creates the first row. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center px-6 py-12 text-center', className)}>
      {icon && <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-500 [&_svg]:size-5">{icon}</div>}
      <p className="text-sm font-medium text-zinc-900">{title}</p>
      {description && <p className="mt-1 max-w-sm text-[13px] text-zinc-500">{description}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** A query failed: the server's message and a retry. */
export function ErrorState({ error, onRetry, className }: { error: unknown; onRetry?: () => void; className?: string }) {
  return (
    <EmptyState
      className={className}
      icon={<AlertTriangleIcon className="text-red-500" />}
      title="Couldn't load this"
      description={errorMessage(error)}
      action={
        onRetry && (
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
        )
      }
    />
  );
}
