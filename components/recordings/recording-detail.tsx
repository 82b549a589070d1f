'use client';
// One recording: the player (video or frames), where it stands, what it captured, and what can be
// done with it (download, encode, delete). While its session runs, owners and admins can watch it live.
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useRecording, type RecordingDetail as Detail } from '@/lib/client/recordings';
import { CaptureHeader } from '../captures/capture-detail';
import { DetailFrame } from '../ui/detail-frame';
import { formatBytes, formatDuration } from '../sessions/format';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader, DescriptionList } from '../ui/card';
import { SessionIdValue } from '../captures/capture-ids';
import { CopyableId } from '../ui/copyable-id';
import { EyeIcon, VideoIcon } from '../ui/icons';
import { SessionTraceLink } from '../traces/session-trace';
import { Time, formatDateTime } from '../ui/time';
import { LiveView } from './live-view';
import { DeleteRecording, DownloadVideo, EncodeVideo } from './recording-actions';
import { RecordingPlayer } from './recording-player';
import { RecordingBadges, recordingState, stateExplanation, truncatedReason, type RecordingState } from './recording-status';

export function RecordingDetail({ id }: { id: string }) {
  const recording = useRecording(id);
  const { canManage } = useActiveWorkspace();
  const navigate = useRouter();
  return (
    <DetailFrame
      query={recording}
      list={{ href: '/recordings', label: 'Recordings' }}
      missing={{ icon: <VideoIcon />, title: 'No such recording', why: 'It was deleted, it is older than 30 days, or it belongs to another workspace.' }}
      skeletons={['aspect-video w-full rounded-xl']}
    >
      {(r) => {
        const state = recordingState(r);
        return (
          <>
            <CaptureHeader
              startedAt={r.startedAt}
              kind="Recording"
              badges={<RecordingBadges recording={r} orphaned={r.orphaned} />}
              description={stateExplanation(state, r.mp4Error)}
              actions={
                <div className="flex flex-wrap items-center gap-3">
                  <SessionTraceLink sessionId={r.sessionLogId} />
                  <RecordingActions recording={r} state={state} canManage={canManage} onDeleted={() => navigate.push('/recordings')} />
                </div>
              }
            />
            <div className="space-y-6">
              {r.truncated && (
                <Alert tone="warning" title="Truncated">
                  {truncatedReason(r.truncated)}
                </Alert>
              )}
              {state === 'failed' && r.mp4Error && (
                <Alert tone="danger" title="Encoding failed">
                  {r.mp4Error}
                </Alert>
              )}
              {state === 'recording' && canManage && <WatchLive sessionId={r.sessionLogId} recordingId={r.id} />}
              <Card aria-label="Player">
                <CardBody>
                  <RecordingPlayer recording={r} />
                </CardBody>
              </Card>
              <Summary recording={r} />
            </div>
          </>
        );
      }}
    </DetailFrame>
  );
}

export function RecordingActions({
  recording,
  state,
  canManage,
  onDeleted,
}: {
  recording: Detail;
  state: RecordingState;
  canManage: boolean;
  onDeleted?: () => void;
}) {
  return (
    <div className="flex flex-wrap items-start gap-2">
      {state === 'ready' && <DownloadVideo recording={recording} />}
      {(state === 'not-encoded' || state === 'failed' || state === 'unfinished') && <EncodeVideo recording={recording} state={state} />}
      {canManage && <DeleteRecording recording={recording} onDeleted={onDeleted} />}
    </div>
  );
}

function WatchLive({ sessionId, recordingId }: { sessionId: string; recordingId: string }) {
  const [watching, setWatching] = useState(false);
  if (watching) return <LiveView sessionId={sessionId} recordingId={recordingId} onClose={() => setWatching(false)} />;
  return (
    <Alert
      tone="info"
      title="The session is running"
      action={
        <Button size="sm" variant="primary" onClick={() => setWatching(true)}>
          <EyeIcon />
          Watch live
        </Button>
      }
    >
      Watch its pages as they change, a fraction of a second behind. The client&apos;s session is not affected.
    </Alert>
  );
}

function Summary({ recording: r }: { recording: Detail }) {
  // The capture writes its figures when the session ends.
  const pending = recordingState(r) === 'recording';
  return (
    <Card aria-label="Summary">
      <CardHeader
        title="Summary"
        description="What the capture recorded. Pages are captured as JPEG frames when they change; identical frames are counted and skipped."
      />
      <DescriptionList
        items={[
          { label: 'Session', value: <SessionIdValue sessionId={r.sessionLogId} /> },
          { label: 'Recording ID', value: <CopyableId id={r.id} label="Copy recording ID" /> },
          { label: 'Started', value: formatDateTime(r.startedAt) },
          { label: 'Ended', value: r.endedAt ? formatDateTime(r.endedAt) : <span className="text-zinc-400">{r.complete ? '—' : 'Still recording'}</span> },
          ...captureFigures(r, pending),
          { label: 'Stopped early', value: r.truncated ? truncatedReason(r.truncated) : <span className="text-zinc-400">No</span> },
          { label: 'Video', value: <VideoStatus recording={r} pending={pending} /> },
        ]}
      />
    </Card>
  );
}

/** What the capture counted: its length, frames and chunks, size, frames dropped and skipped. Each waits for the session's end while it runs. */
function captureFigures(r: Detail, pending: boolean): { label: string; value: ReactNode }[] {
  const later = <span className="text-zinc-400">Counted when the session ends</span>;
  const count = (n: number) => (pending ? later : <span className="tabular-nums">{n.toLocaleString('en')}</span>);
  return [
    {
      label: 'Duration',
      value: pending ? (
        later
      ) : (
        <span className="tabular-nums" data-testid="recording-duration">
          {formatDuration(r.durationMs)}
        </span>
      ),
    },
    {
      label: 'Frames',
      value: pending ? (
        later
      ) : (
        <>
          {count(r.frameCount)}{' '}
          <span className="text-zinc-400">
            in {count(r.chunkCount)} chunk{r.chunkCount === 1 ? '' : 's'}
          </span>
        </>
      ),
    },
    { label: 'Size', value: pending ? later : <span className="tabular-nums">{formatBytes(r.sizeBytes)}</span> },
    {
      label: 'Dropped frames',
      value: (
        <span>
          {count(r.droppedFrames)}
          {!pending && r.droppedFrames > 0 && <span className="ml-2 text-[13px] text-zinc-500">not captured while the recording fell behind the page</span>}
        </span>
      ),
    },
    {
      label: 'Duplicates skipped',
      value: (
        <span>
          {count(r.duplicatesSkipped)}
          {!pending && r.duplicatesSkipped > 0 && <span className="ml-2 text-[13px] text-zinc-500">identical to the frame before, so not stored</span>}
        </span>
      ),
    },
  ];
}

/** The MP4 made from the frames: ready (its size), failed (why), being encoded, or not yet. */
function VideoStatus({ recording: r, pending }: { recording: Detail; pending: boolean }) {
  return r.mp4Status === 'ready' ? (
    <span className="tabular-nums">
      MP4, {formatBytes(r.mp4SizeBytes)}
      {r.mp4ReadyAt && (
        <span className="text-zinc-400">
          {' '}
          · ready <Time value={r.mp4ReadyAt} relative />
        </span>
      )}
    </span>
  ) : r.mp4Status === 'failed' ? (
    <span className="text-red-700">Failed{r.mp4Error ? `: ${r.mp4Error}` : ''}</span>
  ) : r.mp4Status ? (
    <span className="text-zinc-600">Encoding ({r.mp4Status})</span>
  ) : (
    <span className="text-zinc-400">{pending ? 'Made when the session ends' : 'Not encoded'}</span>
  );
}
