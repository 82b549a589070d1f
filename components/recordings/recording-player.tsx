'use client';
// A recording, played: the MP4 once it is ready (a <video> whose seeks are range requests), else
// the frame player on the manifest and chunks. With the video ready the frames stay one click
// away, for watching a tab the video does not show. Either opens on the page the session worked on
// (its busiest tab's first frame), not on the blank tab a browser starts with.
import { useEffect, useMemo, useRef, useState } from 'react';
import { busiest, framesOfTarget, openingPosition } from '@/lib/client/recording-frames';
import { useManifest, recordingVideoUrl, type RecordingDetail } from '@/lib/client/recordings';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { EmptyState, ErrorState } from '../ui/empty-state';
import { VideoIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';
import { FramePlayer, type PlayerSync } from './frame-player';
import { recordingState } from './recording-status';

type Mode = 'video' | 'frames';

/** `seek` and `onPositionChange` (optional) tie the player to another view's timeline (the trace viewer). */
export function RecordingPlayer({ recording, className, seek, onPositionChange }: { recording: RecordingDetail; className?: string } & PlayerSync) {
  const ready = recordingState(recording) === 'ready';
  const [chosen, setChosen] = useState<Mode | null>(null);
  const mode: Mode = ready ? (chosen ?? 'video') : 'frames';
  // The video opens where the busiest tab shows its first frame, not on the blank tab a browser starts with.
  const manifest = useManifest(recording.id).data;
  const openAt = useMemo(() => {
    const tab = manifest && busiest(manifest.targets);
    return tab ? openingPosition(framesOfTarget(manifest.frames, tab), 0) : 0;
  }, [manifest]);

  return (
    <div className={cn('space-y-3', className)}>
      {ready && (
        <div role="radiogroup" aria-label="Play" className="inline-flex rounded-lg border border-zinc-200 bg-zinc-50 p-0.5 text-[13px]">
          {(['video', 'frames'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={mode === m}
              onClick={() => setChosen(m)}
              className={cn(
                'rounded-md px-3 py-1 font-medium transition-colors',
                mode === m ? 'bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200' : 'text-zinc-500 hover:text-zinc-800',
              )}
            >
              {m === 'video' ? 'Video' : 'Frames by tab'}
            </button>
          ))}
        </div>
      )}
      {mode === 'video' ? (
        <VideoPlayer recordingId={recording.id} openAtMs={openAt} seek={seek} onPositionChange={onPositionChange} />
      ) : (
        <Frames recording={recording} seek={seek} onPositionChange={onPositionChange} />
      )}
    </div>
  );
}

function VideoPlayer({ recordingId, openAtMs, seek, onPositionChange }: { recordingId: string; openAtMs: number } & PlayerSync) {
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    // Before the metadata has loaded this sets where playback will start.
    if (seek && video.current) video.current.currentTime = Math.max(0, seek.ms) / 1000;
  }, [seek]);
  useEffect(() => {
    // Where it opens, unless a seek asked for another moment or the viewer already moved it.
    const v = video.current;
    if (v && !seek && openAtMs > 0 && v.currentTime === 0 && v.paused) v.currentTime = openAtMs / 1000;
  }, [openAtMs, seek]);
  if (failed) {
    return (
      <ErrorState
        className="rounded-lg border border-zinc-200"
        error={new Error('the video could not be loaded; it may have been deleted or the connection dropped')}
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return (
    <video
      key={attempt}
      ref={video}
      onTimeUpdate={onPositionChange && ((e) => onPositionChange(e.currentTarget.currentTime * 1000))}

      src={recordingVideoUrl(recordingId, { inline: true })}
      controls
      preload="metadata"
      playsInline
      onError={() => setFailed(true)}
      data-testid="recording-video"
      aria-label="Recording video"
      className="aspect-video max-h-[70vh] w-full rounded-lg bg-zinc-950"
    />
  );
}

function Frames({ recording, seek, onPositionChange }: { recording: RecordingDetail } & PlayerSync) {
  const manifest = useManifest(recording.id);
  if (manifest.error && !manifest.data)
    return <ErrorState className="rounded-lg border border-zinc-200" error={manifest.error} onRetry={() => void manifest.refetch()} />;
  if (!manifest.data) return <Skeleton className="aspect-video w-full rounded-lg" />;
  if (manifest.data.frames.length === 0) {
    const waiting = !recording.complete && !recording.orphaned;
    return (
      <EmptyState
        className="rounded-lg border border-dashed border-zinc-300"
        icon={<VideoIcon />}
        title={waiting ? 'Waiting for the first frame…' : 'No frames were captured'}
        description={waiting ? 'Frames appear here a few seconds after the page starts drawing.' : 'The session ended before any page was drawn.'}
        action={
          waiting && (
            <Button size="sm" onClick={() => void manifest.refetch()}>
              Check again
            </Button>
          )
        }
      />
    );
  }
  return <FramePlayer recordingId={recording.id} manifest={manifest.data} durationMs={recording.durationMs} seek={seek} onPositionChange={onPositionChange} />;
}
