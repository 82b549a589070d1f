// The display of a new credential (account token, router key): the value, a copy button, and
// what happens to it next. By default that it will not be shown again (we keep only a hash);
// a router key says instead where it can be fetched again.
import type { ReactNode } from 'react';
import { Alert } from './alert';
import { CopyButton } from './copy-button';

const SHOWN_ONCE = "Copy it now: you won't see it again.";

export function SecretReveal({
  value,
  label = 'Secret',
  notice = SHOWN_ONCE,
  children,
}: {
  value: string;
  label?: string;
  notice?: string;
  children?: ReactNode;
}) {
  return (
    <div className="space-y-3">
      <div>
        <div className="mb-1.5 text-[13px] font-medium text-zinc-700">{label}</div>
        <div className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-1.5 pl-3">
          <code data-testid="secret-value" className="min-w-0 flex-1 font-mono text-[13px] break-all text-zinc-900 select-all">
            {value}
          </code>
          <CopyButton value={value} />
        </div>
      </div>
      <Alert tone={notice === SHOWN_ONCE ? 'warning' : 'info'} title={notice}>
        {children ?? 'We store only a hash of this value. If you lose it, rotate it to get a new one.'}
      </Alert>
    </div>
  );
}
