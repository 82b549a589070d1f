'use client';
// Plays a recording from its frames, before (or instead of) the MP4: one tab at a time on the
// recording's own clock, so switching tabs keeps the moment. Frames come from the chunks as the
// playhead needs them (lib/client/recording-frames.ts); playback waits while a chunk loads.
// Keys: space plays or pauses, ←/→ step 5 s, Home/End jump to the ends.
import { useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { busiest, formatClock, framesOfTarget, openingPosition, tabLabel, type PlayerFrame } from '@/lib/client/recording-frames';
import type { RecordingManifest } from '@/lib/client/recordings';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { PauseIcon, PlayIcon } from '../ui/icons';
import { Select } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { TabPicker } from './tab-picker';
import { useFrameStore, usePlayhead, useShownFrame } from './use-frame-playback';

const SPEEDS = [0.5, 1, 2, 4, 8] as const;
const STEP_MS = 5_000;

/**
 * A jump asked from outside (the trace viewer's timeline): to `ms` since the recording started, on
 * the tab `tab` when it has frames. A new `key` asks again for the same moment.
 */
export interface PlayerSeek {
  ms: number;
  tab?: string | null;
  key: number;
}

export interface PlayerSync {
  seek?: PlayerSeek | null;
  /** The playhead as it moves (ms since the recording started). */
  onPositionChange?: (ms: number) => void;
}

export function FramePlayer({
  recordingId,
  manifest,
  durationMs,
  className,
  seek: seekTo,
  onPositionChange,
}: { recordingId: string; manifest: RecordingManifest; durationMs: number; className?: string } & PlayerSync) {
  const { targets, targetId, frames, duration, root, playhead, at, frame, shown, buffering, loadError, pickTab } = useFramePlayer({
    recordingId,
    manifest,
    durationMs,
    seekTo,
    onPositionChange,
  });
  const { position } = playhead;
  const target = targets.find((t) => t.targetId === targetId) ?? null;
  return (
    <div
      ref={root}
      tabIndex={0}
      onKeyDown={(event) => onPlayerKey(event, root.current, playhead, duration)}
      role="group"
      aria-label="Frame player"
      aria-keyshortcuts="Space ArrowLeft ArrowRight Home End"
      data-testid="frame-player"
      className={cn(
        'overflow-hidden rounded-lg border border-zinc-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        className,
      )}
    >
      <Screen
        frame={frame}
        frames={frames}
        shown={shown}
        buffering={buffering}
        label={`${target ? tabLabel(target, targets.indexOf(target) + 1) : 'Tab'} at ${formatClock(position)}`}
      />
      <div className="space-y-2 border-t border-zinc-200 px-3 py-2.5">
        <PositionSlider playhead={playhead} duration={duration} />
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <PlayButton playhead={playhead} duration={duration} />
          <TabPicker targets={targets} targetId={targetId} position={position} onPick={pickTab} />
        </div>
        {frames.length > 0 && (
          <p className="text-[12px] text-zinc-400 tabular-nums">
            Frame {Math.max(0, at) + 1} of {frames.length.toLocaleString('en')} · space plays or pauses, ←/→ move 5 s
          </p>
        )}
        <ErrorAlert error={loadError} />
      </div>
    </div>
  );
}

/** The tab shown (the busiest until one is picked) and its frames, the playhead over the recording's length, the frame at it. */
function useFramePlayer({
  recordingId,
  manifest,
  durationMs,
  seekTo,
  onPositionChange,
}: {
  recordingId: string;
  manifest: RecordingManifest;
  durationMs: number;
  seekTo?: PlayerSeek | null;
  onPositionChange?: (ms: number) => void;
}) {
  const { workspaceId } = useActiveWorkspace();
  const targets = useMemo(() => manifest.targets.filter((t) => t.frameCount > 0), [manifest.targets]);
  const [chosen, setChosen] = useState<string | null>(null);
  const targetId = chosen && targets.some((t) => t.targetId === chosen) ? chosen : busiest(targets);
  const frames = useMemo<PlayerFrame[]>(() => (targetId ? framesOfTarget(manifest.frames, targetId) : []), [manifest.frames, targetId]);
  const lastT = useMemo(() => manifest.frames.reduce((t, f) => Math.max(t, f.t), 0), [manifest.frames]);
  const duration = Math.max(durationMs, lastT);
  const root = useRef<HTMLDivElement>(null);
  const bufferingRef = useRef(false);

  const store = useFrameStore(recordingId, workspaceId);
  // It opens on its tab's first frame (a tab opened after the recording started has none at 0:00).
  const playhead = usePlayhead({
    duration,
    opening: openingPosition(frames, 0),
    bufferingRef,
    seekTo,
    onPositionChange,
    onSeekTab: (tab) => targets.some((t) => t.targetId === tab) && setChosen(tab),
  });
  const { position, positionRef, seek } = playhead;
  const { at, frame, shown, buffering, loadError } = useShownFrame(store, frames, position, bufferingRef, playhead.pause);

  /** Another tab: shown from its first frame when the playhead is before it (not an empty screen). */
  const pickTab = (id: string) => {
    setChosen(id);
    const next = openingPosition(framesOfTarget(manifest.frames, id), positionRef.current);
    if (next !== positionRef.current) seek(next);
  };
  return { targets, targetId, frames, duration, root, playhead, at, frame, shown, buffering, loadError, pickTab };
}

/** The picture at the playhead, at the frame's own size and aspect; what the tab shows before its first frame. */
function Screen({
  frame,
  frames,
  shown,
  buffering,
  label,
}: {
  frame: PlayerFrame | null;
  frames: PlayerFrame[];
  shown: { index: number; src: string } | null;
  buffering: boolean;
  label: string;
}) {
  const width = frame?.width || frames[0]?.width || 16;
  const height = frame?.height || frames[0]?.height || 10;
  return (
    <div className="bg-zinc-950">
      <div
        className="relative mx-auto flex items-center justify-center"
        style={{ aspectRatio: `${width} / ${height}`, width: `min(100%, calc(70vh * ${width / height}))` }}
      >
        {frame && shown ? (
          // A Blob URL cut from a chunk: next/image has nothing to optimise here.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={shown.src}
            alt={label}
            width={width}
            height={height}
            data-frame-index={shown.index}
            className="h-full w-full object-contain"
            draggable={false}
          />
        ) : (
          <p className="px-6 text-center text-sm text-zinc-400">
            {frames.length === 0 ? 'No frames were captured for this tab.' : `This tab opens at ${formatClock(frames[0]?.t ?? 0)}.`}
          </p>
        )}
        {buffering && (
          <div className="absolute top-3 right-3 flex items-center gap-1.5 rounded-full bg-zinc-900/80 px-2.5 py-1 text-[12px] text-zinc-200" role="status">
            <Spinner className="size-3.5" />
            Loading frames…
          </div>
        )}
      </div>
    </div>
  );
}

type Playhead = ReturnType<typeof usePlayhead>;

/** The position slider. */
function PositionSlider({ playhead: { position, seek }, duration }: { playhead: Playhead; duration: number }) {
  return (
    <input
      type="range"
      min={0}
      max={Math.max(1, Math.round(duration))}
      step={1}
      value={Math.round(position)}
      onChange={(e) => seek(Number(e.target.value))}
      aria-label="Position"
      aria-valuetext={`${formatClock(position)} of ${formatClock(duration)}`}
      className="block w-full accent-accent-600"
    />
  );
}

/** Play or pause, the clock, the speed. */
function PlayButton({ playhead: { playing, toggle, position, speed, setSpeed }, duration }: { playhead: Playhead; duration: number }) {
  return (
    <>
      <Button size="sm" variant="primary" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} className="w-20">
        {playing ? <PauseIcon /> : <PlayIcon />}
        {playing ? 'Pause' : 'Play'}
      </Button>
      <span className="font-mono text-[13px] text-zinc-700 tabular-nums" data-testid="player-time">
        {formatClock(position)} / {formatClock(duration)}
      </span>
      <SpeedPicker speed={speed} onChange={setSpeed} />
    </>
  );
}

function SpeedPicker({ speed, onChange }: { speed: number; onChange: (speed: number) => void }) {
  return (
    <label className="flex items-center gap-1.5 text-[13px] text-zinc-500">
      Speed
      <Select value={String(speed)} onChange={(e) => onChange(Number(e.target.value))} className="h-8 w-20 py-0 text-[13px]" aria-label="Speed">
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </Select>
    </label>
  );
}

/** Keys on the player: space plays or pauses, ←/→ step 5 s, Home/End jump to the ends (not on its buttons, and not arrows on the slider, which has its own). */
function onPlayerKey(
  event: ReactKeyboardEvent<HTMLDivElement>,
  root: HTMLDivElement | null,
  playhead: Pick<Playhead, 'toggle' | 'seek' | 'positionRef'>,
  duration: number,
): void {
  const element = event.target as HTMLElement;
  const onControl = element !== root && ['BUTTON', 'SELECT', 'TEXTAREA', 'A'].includes(element.tagName);
  const onSlider = element instanceof HTMLInputElement && element.type === 'range';
  if (onControl) return;
  if (event.key === ' ') {
    event.preventDefault();
    playhead.toggle();
  } else if (!onSlider && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    event.preventDefault();
    playhead.seek(playhead.positionRef.current + (event.key === 'ArrowLeft' ? -STEP_MS : STEP_MS));
  } else if (!onSlider && (event.key === 'Home' || event.key === 'End')) {
    event.preventDefault();
    playhead.seek(event.key === 'Home' ? 0 : duration);
  }
}
