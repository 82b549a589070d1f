// Where a recording stands, as a badge and in words: still recording, encoding its video, ready,
// failed, never encoded, or unfinished (its session ended without the capture closing it); and why
// a truncated one stopped early.
import type { Recording } from '@/lib/client/recordings';
import { Badge } from '../ui/badge';

/** Sessions last at most 4 hours: a recording still open well after that will not finish. */
const LONGEST_SESSION_MS = 4 * 3_600_000 + 5 * 60_000;

export type RecordingState = 'recording' | 'unfinished' | 'encoding' | 'ready' | 'failed' | 'not-encoded';

export function recordingState(r: Pick<Recording, 'complete' | 'mp4Status' | 'startedAt'> & { orphaned?: boolean }, now = Date.now()): RecordingState {
  if (r.mp4Status === 'queued' || r.mp4Status === 'running') return 'encoding';
  if (r.mp4Status === 'ready') return 'ready';
  if (r.mp4Status === 'failed') return 'failed';
  if (!r.complete) {
    // The list has no `orphaned`: there, a recording open longer than any session can run is one.
    const orphaned = r.orphaned ?? now - new Date(r.startedAt).getTime() > LONGEST_SESSION_MS;
    return orphaned ? 'unfinished' : 'recording';
  }
  return 'not-encoded';
}

/** A state that changes by itself: pages showing one ask again every few seconds. */
export const isSettling = (state: RecordingState) => state === 'recording' || state === 'encoding';

export function RecordingStateBadge({ state }: { state: RecordingState }) {
  switch (state) {
    case 'recording':
      return (
        <Badge tone="danger" className="gap-1.5">
          <span className="relative flex size-1.5" aria-hidden="true">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-500 opacity-70" />
            <span className="relative inline-flex size-1.5 rounded-full bg-red-600" />
          </span>
          Recording
        </Badge>
      );
    case 'encoding':
      return (
        <Badge tone="accent" dot>
          Encoding
        </Badge>
      );
    case 'ready':
      return <Badge tone="success">Ready</Badge>;
    case 'failed':
      return (
        <Badge tone="danger" dot>
          Failed
        </Badge>
      );
    case 'unfinished':
      return <Badge tone="warning">Unfinished</Badge>;
    default:
      return <Badge>Not encoded</Badge>;
  }
}

export function RecordingBadges({ recording, orphaned }: { recording: Recording; orphaned?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="recording-status">
      <RecordingStateBadge state={recordingState({ ...recording, orphaned })} />
      {recording.truncated && (
        <span title={truncatedReason(recording.truncated)}>
          <Badge tone="warning">Truncated</Badge>
        </span>
      )}
    </span>
  );
}

/** Why a recording stopped before its session ended, in a sentence. */
export function truncatedReason(truncated: NonNullable<Recording['truncated']>): string {
  return truncated === 'byte-cap'
    ? 'Recording stopped at the 1 GB limit; the session kept running, and what came after is not in the recording.'
    : 'Recording stopped when its cost would have used up the wallet balance; the session kept running, and what came after is not in the recording. Top up the wallet to record longer sessions.';
}

/** One sentence about the state, for the recording's page. */
export function stateExplanation(state: RecordingState, mp4Error: string | null): string {
  switch (state) {
    case 'recording':
      return 'The session is still running: frames are being captured. The video is made when it ends; until then, play the frames captured so far.';
    case 'encoding':
      return 'The video is being made from the captured frames. It plays here as soon as it is ready; the frames play in the meantime.';
    case 'ready':
      return 'The video is ready to play and download.';
    case 'failed':
      return `Making the video failed${mp4Error ? `: ${mp4Error}` : ''}. The frames are kept; encode again to retry.`;
    case 'unfinished':
      return 'The session ended without the recording being closed (the proxy holding it stopped). The frames captured until then can still be played and encoded.';
    default:
      return 'No video has been made yet. Encode it to play and download it as an MP4.';
  }
}
