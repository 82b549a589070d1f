// The frame player's state (frame-player.tsx draws it): the recording's chunk store, the frame on
// screen at the playhead (and whether its chunk is still loading), and the playhead itself: the
// clock, seeks from the controls or from outside (the trace viewer), and space on the page.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { apiFetchFile } from '@/lib/client/api-fetch';
import { FrameStore, frameIndexAt, LEAD_IN_MS, nextChunkAfter, type PlayerFrame } from '@/lib/client/recording-frames';
import { recordingChunkUrl } from '@/lib/client/recordings';
import type { PlayerSeek } from './frame-player';

/** One store per recording: its chunks and the frame URLs cut from them, revoked when it closes. */
export function useFrameStore(recordingId: string, workspaceId: string | null): FrameStore | null {
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
  return store;
}

/**
 * The frame at `position` and the picture shown for it. Before a tab's first frame: its first
 * picture when it is just about to come (the first frames arrive a moment after the recording
 * starts), else none (a tab opened later). `buffering` (also in `bufferingRef`, for the clock)
 * holds while the frame's chunk loads; a chunk that fails to load calls `onFailed`.
 */
export function useShownFrame(store: FrameStore | null, frames: PlayerFrame[], position: number, bufferingRef: RefObject<boolean>, onFailed: () => void) {
  const [shown, setShown] = useState<{ index: number; src: string } | null>(null);
  const [buffering, setBuffering] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const found = frameIndexAt(frames, position);
  const at = found < 0 && frames.length > 0 && frames[0]!.t - position <= LEAD_IN_MS ? 0 : found;
  const frame = at >= 0 ? frames[at]! : null;
  const failed = useRef(onFailed);
  useEffect(() => {
    failed.current = onFailed;
  });

  useEffect(() => {
    if (!store || !frame) return;
    const prefetchNext = () => {
      const next = nextChunkAfter(frames, at, frame.chunk);
      if (next !== null) store.prefetch(next);
    };
    const ready = store.peek(frame);
    if (ready) {
      // A frame already cut: shown at once, no fetch.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setShown({ index: frame.index, src: ready });
      prefetchNext();
      return;
    }
    let current = true;
    bufferingRef.current = true;
    setBuffering(true);
    store
      .url(frame)
      .then(
        (src) => {
          if (!current) return;
          setShown({ index: frame.index, src });
          setLoadError(null);
        },
        (error: unknown) => {
          if (current && (error as Error).name !== 'AbortError') {
            setLoadError(error);
            failed.current();
          }
        },
      )
      .finally(() => {
        if (!current) return;
        bufferingRef.current = false;
        setBuffering(false);
      });
    prefetchNext();
    return () => {
      current = false;
      bufferingRef.current = false;
    };
  }, [store, frame, frames, at, bufferingRef]);

  return { at, frame, shown, buffering, loadError };
}

/**
 * The playhead (ms since the recording started). It advances with the screen's refresh, by real
 * time × speed, and holds while `bufferingRef` says a chunk loads. Only a new outside `seekTo`
 * moves it from outside (choosing its tab with `onSeekTab`); `onPositionChange` hears every move.
 */
export function usePlayhead(options: {
  duration: number;
  opening: number;
  bufferingRef: RefObject<boolean>;
  seekTo?: PlayerSeek | null;
  onSeekTab: (tab: string) => void;
  onPositionChange?: (ms: number) => void;
}) {
  const { duration, bufferingRef, seekTo } = options;
  const [position, setPosition] = useState(options.opening);
  const positionRef = useRef(position);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);

  usePlayClock({ playing, speed, duration, bufferingRef, positionRef, setPosition, onEnd: () => setPlaying(false) });

  const seek = (ms: number) => {
    const next = Math.min(duration, Math.max(0, ms));
    positionRef.current = next;
    setPosition(next);
  };
  const toggle = () => {
    if (playing) return setPlaying(false);
    if (positionRef.current >= duration) seek(0);
    setPlaying(true);
  };

  // Outside seeks and position reports (the trace viewer); without these props nothing changes.
  // Only a new seek request moves the playhead: the rest is read from here, not watched.
  const latest = useRef({ duration, onSeekTab: options.onSeekTab, onPositionChange: options.onPositionChange, toggle });
  useEffect(() => {
    latest.current = { duration, onSeekTab: options.onSeekTab, onPositionChange: options.onPositionChange, toggle };
  });
  useEffect(() => {
    if (!seekTo) return;
    // The seek is the external request this effect follows: applied once per request.
    if (seekTo.tab) latest.current.onSeekTab(seekTo.tab);
    const next = Math.min(latest.current.duration, Math.max(0, seekTo.ms));
    positionRef.current = next;
    setPosition(next);
  }, [seekTo]);
  useEffect(() => {
    latest.current.onPositionChange?.(position);
  }, [position]);

  // Space with nothing focused (the page itself) plays and pauses too.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== ' ' || event.target !== document.body || event.defaultPrevented) return;
      event.preventDefault();
      latest.current.toggle();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return { position, positionRef, playing, pause: () => setPlaying(false), speed, setSpeed, seek, toggle };
}

/** While playing: the playhead advances with the screen's refresh, by real time × speed, holding while a chunk loads; at the end it stops. */
function usePlayClock(clock: {
  playing: boolean;
  speed: number;
  duration: number;
  bufferingRef: RefObject<boolean>;
  positionRef: RefObject<number>;
  setPosition: (ms: number) => void;
  onEnd: () => void;
}) {
  const { playing, speed, duration, bufferingRef, positionRef, setPosition } = clock;
  const onEnd = useRef(clock.onEnd);
  useEffect(() => {
    onEnd.current = clock.onEnd;
  });
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
          onEnd.current();
          return;
        }
      }
      request = requestAnimationFrame(step);
    };
    request = requestAnimationFrame(step);
    return () => cancelAnimationFrame(request);
  }, [playing, speed, duration, bufferingRef, positionRef, setPosition]);
}
