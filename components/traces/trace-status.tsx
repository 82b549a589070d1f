// Where a trace stands, as a badge and in words: complete, being written (its session runs), or
// orphaned (its session ended without the capture closing it); and why a truncated one stopped early.
import { traceState, type Trace, type TraceState } from '@/lib/client/traces';
import { Badge } from '../ui/badge';

export function TraceStateBadge({ state }: { state: TraceState }) {
  switch (state) {
    case 'writing':
      return (
        <Badge tone="accent" dot>
          Being written
        </Badge>
      );
    case 'orphaned':
      return <Badge tone="warning">Orphaned</Badge>;
    default:
      return <Badge tone="success">Complete</Badge>;
  }
}

export function TraceBadges({ trace, orphaned }: { trace: Trace; orphaned?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="trace-status">
      <TraceStateBadge state={traceState({ ...trace, orphaned })} />
      {trace.truncated && (
        <span title={truncatedReason(trace.truncated)}>
          <Badge tone="warning">Truncated</Badge>
        </span>
      )}
    </span>
  );
}

/** Why a trace stopped before its session ended, in a sentence. */
export function truncatedReason(truncated: NonNullable<Trace['truncated']>): string {
  return truncated === 'event-cap'
    ? 'Capture stopped at the limit of 2,000,000 events; the session kept running, and what came after is not in the trace.'
    : 'Capture stopped when its cost would have used up the wallet balance; the session kept running, and what came after is not in the trace. Top up the wallet to trace longer sessions.';
}

/** One sentence about the state, for the trace's page. */
export function stateExplanation(state: TraceState): string {
  switch (state) {
    case 'writing':
      return 'The session is still running: the trace is being written. It opens here when the session ends.';
    case 'orphaned':
      return 'The session ended without the trace being closed (the proxy holding it stopped). What was captured until then is shown.';
    default:
      return 'Network requests, console output and navigations of the session, as the client’s connection received them.';
  }
}
