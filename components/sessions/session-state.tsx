import type { Session } from '@/lib/client/sessions';
import { Badge } from '../ui/badge';

export function SessionStateBadge({ session }: { session: Pick<Session, 'state' | 'errorReason'> }) {
  if (session.state === 'active') {
    return (
      <Badge tone="success" className="gap-1.5">
        <span className="relative flex size-1.5" aria-hidden="true">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-500 opacity-70" />
          <span className="relative inline-flex size-1.5 rounded-full bg-emerald-600" />
        </span>
        Active
      </Badge>
    );
  }
  if (session.state === 'errored') {
    return (
      <span title={session.errorReason ?? undefined}>
        <Badge tone="danger" dot>
          Errored
        </Badge>
      </span>
    );
  }
  return <Badge>Closed</Badge>;
}
