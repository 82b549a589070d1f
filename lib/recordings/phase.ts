// Where a recording stands, from its row and its session's: still being written, complete, or
// orphaned (its session ended without the capture finishing it: the proxy holding it died, or its
// end write failed). Pure: the clock is an argument.
import type { SessionState } from '../db';

/**
 * After a session ends, the capture still flushes its last chunk and writes the summary; until this
 * long has passed an unfinished recording counts as still being written, not as orphaned.
 */
export const FINISHING_GRACE_MS = 30_000;

export type RecordingPhase = 'recording' | 'complete' | 'orphaned';

export interface PhaseInput {
  complete: boolean;
  session: { state: SessionState; endedAt: Date | null };
}

export function recordingPhase({ complete, session }: PhaseInput, now: Date): RecordingPhase {
  if (complete) return 'complete';
  if (session.state === 'active') return 'recording';
  const endedAt = session.endedAt?.getTime() ?? 0;
  return now.getTime() - endedAt < FINISHING_GRACE_MS ? 'recording' : 'orphaned';
}
