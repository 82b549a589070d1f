'use client';
// Plays a recording from its frames, before (or instead of) the MP4: one tab at a time on the
// recording's own clock, so switching tabs keeps the moment. Frames come from the chunks as the
// playhead needs them (lib/client/recording-frames.ts); playback waits while a chunk loads.
// Keys: space plays or pauses, ←/→ step 5 s, Home/End jump to the ends.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { apiFetchFile } from '@/lib/client/api-fetch';
import { useActiveWorkspace } from '@/lib/client/me';
import { busiest, FrameStore, formatClock, frameIndexAt, framesOfTarget, LEAD_IN_MS, nextChunkAfter, openingPosition, tabLabel, type PlayerFrame } from '@/lib/client/recording-frames';
import { recordingChunkUrl, type RecordingManifest } from '@/lib/client/recordings';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { PauseIcon, PlayIcon } from '../ui/icons';
import { Select } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { TabPicker } from './tab-picker';

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

export function FramePlayer({ recordingId, manifest, durationMs, className, seek: seekTo, onPositionChange }: { recordingId: string; manifest: RecordingManifest; durationMs: number; className?: string } & PlayerSync) {
  const { workspaceId } = useActiveWorkspace();
  const targets = useMemo(() => manifest.targets.filter((t) => t.frameCount > 0), [manifest.targets]);
  const [chosen, setChosen] = useState<string | null>(null);
  const targetId = chosen && targets.some((t) => t.targetId === chosen) ? chosen : busiest(targets);
  const frames = useMemo<PlayerFrame[]>(() => (targetId ? framesOfTarget(manifest.frames, targetId) : []), [manifest.frames, targetId]);
  const lastT = useMemo(() => manifest.frames.reduce((t, f) => Math.max(t, f.t), 0), [manifest.frames]);
  const duration = Math.max(durationMs, lastT);

  // It opens on its tab's first frame (a tab opened after the recording started has none at 0:00).
  const [position, setPosition] = useState(() => openingPosition(frames, 0));
  const positionRef = useRef(position);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const [shown, setShown] = useState<{ index: number; src: string } | null>(null);
  const [buffering, setBuffering] = useState(false);
  const bufferingRef = useRef(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const root = useRef<HTMLDivElement>(null);

  // One store per recording: its chunks and the frame URLs cut from them, revoked when it closes.
  const [store, setStore] = useState<FrameStore | null>(null);
  useEffect(() => {
    const created = new FrameStore(async (index, signal) => {
      const file = await apiFetchFile(recordingChunkUrl(recordingId, index), { workspaceId, signal });
      return file.blob.arrayBuffer();
    });
    // The store is the external resource this effect owns; the player renders once it exists.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setStore(created);
    return () => created.dispose();
  }, [recordingId, workspaceId]);

  // Before a tab's first frame: its first picture when it is just about to come (the first
  // frames arrive a moment after the recording starts), else nothing (a tab opened later).
  const found = frameIndexAt(frames, position);
  const at = found < 0 && frames.length > 0 && frames[0]!.t - position <= LEAD_IN_MS ? 0 : found;
  const frame = at >= 0 ? frames[at]! : null;

  useEffect(() => {
    if (!store || !frame) return;
    const ready = store.peek(frame);
    if (ready) {
      // A frame already cut: shown at once, no fetch.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setShown({ index: frame.index, src: ready });
    } else {
      let current = true;
      bufferingRef.current = true;
      setBuffering(true);
      store.url(frame).then(
        (src) => {
          if (!current) return;
          setShown({ index: frame.index, src });
          setLoadError(null);
        },
        (error: unknown) => {
          if (current && (error as Error).name !== 'AbortError') {
            setLoadError(error);
            setPlaying(false);
          }
        },
      ).finally(() => {
        if (!current) return;
        bufferingRef.current = false;
        setBuffering(false);
      });
      const next = nextChunkAfter(frames, at, frame.chunk);
      if (next !== null) store.prefetch(next);
      return () => {
        current = false;
        bufferingRef.current = false;
      };
    }
    const next = nextChunkAfter(frames, at, frame.chunk);
    if (next !== null) store.prefetch(next);
  }, [store, frame, frames, at]);

  // The clock: advances with the screen's refresh, by real time × speed, and holds while a chunk loads.
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let request = 0;
    const step = (now: number) => {
      const elapsed = now - last;
      last = now;
      if (!bufferingRef.current) {
        const next = Math.min(duration, positionRef.current + elapsed * speed);
        positionRef.current = next;
        setPosition(next);
        if (next >= duration) {
          setPlaying(false);
          return;
        }
      }
      request = requestAnimationFrame(step);
    };
    request = requestAnimationFrame(step);
    return () => cancelAnimationFrame(request);
  }, [playing, speed, duration]);

  const seek = (ms: number) => {
    const next = Math.min(duration, Math.max(0, ms));
    positionRef.current = next;
    setPosition(next);
  };
  /** Another tab: shown from its first frame when the playhead is before it (not an empty screen). */
  const pickTab = (id: string) => {
    setChosen(id);
    const next = openingPosition(framesOfTarget(manifest.frames, id), positionRef.current);
    if (next !== positionRef.current) seek(next);
  };
  const toggle = () => {
    if (playing) return setPlaying(false);
    if (positionRef.current >= duration) seek(0);
    setPlaying(true);
  };
  // Outside seeks and position reports (the trace viewer); without these props nothing changes.
  // Only a new seek request moves the playhead: the rest is read from here, not watched.
  const latest = useRef({ duration, targets, onPositionChange });
  useEffect(() => {
    latest.current = { duration, targets, onPositionChange };
  });
  useEffect(() => {
    if (!seekTo) return;
    const { duration: end, targets: tabs } = latest.current;
    // The seek is the external request this effect follows: applied once per request.
    if (seekTo.tab && tabs.some((t) => t.targetId === seekTo.tab)) setChosen(seekTo.tab);
    const next = Math.min(end, Math.max(0, seekTo.ms));
    positionRef.current = next;
    setPosition(next);
  }, [seekTo]);
  useEffect(() => {
    latest.current.onPositionChange?.(position);
  }, [position]);

  const toggleRef = useRef(toggle);
  useEffect(() => {
    toggleRef.current = toggle;
  });

  // Space with nothing focused (the page itself) plays and pauses too.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== ' ' || event.target !== document.body || event.defaultPrevented) return;
      event.preventDefault();
      toggleRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const element = event.target as HTMLElement;
    const onControl = element !== root.current && ['BUTTON', 'SELECT', 'TEXTAREA', 'A'].includes(element.tagName);
    const onSlider = element instanceof HTMLInputElement && element.type === 'range';
    if (onControl) return;
    if (event.key === ' ') {
      event.preventDefault();
      toggle();
    } else if (!onSlider && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      seek(positionRef.current + (event.key === 'ArrowLeft' ? -STEP_MS : STEP_MS));
    } else if (!onSlider && (event.key === 'Home' || event.key === 'End')) {
      event.preventDefault();
      seek(event.key === 'Home' ? 0 : duration);
    }
  };

  const target = targets.find((t) => t.targetId === targetId) ?? null;
  const firstT = frames[0]?.t ?? 0;
  const width = frame?.width || frames[0]?.width || 16;
  const height = frame?.height || frames[0]?.height || 10;

  return (
    <div
      ref={root}
      tabIndex={0}
      onKeyDown={onKeyDown}
      role="group"
      aria-label="Frame player"
      aria-keyshortcuts="Space ArrowLeft ArrowRight Home End"
      data-testid="frame-player"
      className={cn('overflow-hidden rounded-lg border border-zinc-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500', className)}
    >
      <div className="bg-zinc-950">
        <div className="relative mx-auto flex items-center justify-center" style={{ aspectRatio: `${width} / ${height}`, width: `min(100%, calc(70vh * ${width / height}))` }}>
          {frame && shown ? (
            // A Blob URL cut from a chunk: next/image has nothing to optimise here.
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={shown.src}
              alt={`${target ? tabLabel(target, targets.indexOf(target) + 1) : 'Tab'} at ${formatClock(position)}`}
              width={width}
              height={height}
              data-frame-index={shown.index}
              className="h-full w-full object-contain"
              draggable={false}
            />
          ) : (
            <p className="px-6 text-center text-sm text-zinc-400">
              {frames.length === 0 ? 'No frames were captured for this tab.' : `This tab opens at ${formatClock(firstT)}.`}
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

      <div className="space-y-2 border-t border-zinc-200 px-3 py-2.5">
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
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <Button size="sm" variant="primary" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} className="w-20">
            {playing ? <PauseIcon /> : <PlayIcon />}
            {playing ? 'Pause' : 'Play'}
          </Button>
          <span className="font-mono text-[13px] text-zinc-700 tabular-nums" data-testid="player-time">
            {formatClock(position)} / {formatClock(duration)}
          </span>
          <label className="flex items-center gap-1.5 text-[13px] text-zinc-500">
            Speed
            <Select value={String(speed)} onChange={(e) => setSpeed(Number(e.target.value))} className="h-8 w-20 py-0 text-[13px]" aria-label="Speed">
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </Select>
          </label>
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
