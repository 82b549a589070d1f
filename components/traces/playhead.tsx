'use client';
// The recording's playhead on the trace's axis. The player reports its position many times a
// second; only the cursor lines read it (through a small store), so the waterfall's rows do not
// render again as it moves.
import { useState, useSyncExternalStore } from 'react';
import { axisFraction, type TimeAxis } from '@/lib/client/trace-timeline';
import { cn } from '../ui/cn';

export class Playhead {
  private value: number | null = null;
  private readonly listeners = new Set<() => void>();

  /** The playhead as a moment of the trace (proxy clock, Unix ms); null without a recording. */
  get = () => this.value;

  set(t: number | null) {
    if (t === this.value) return;
    this.value = t;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function usePlayhead(): Playhead {
  const [store] = useState(() => new Playhead());
  return store;
}

/** A vertical line at the playhead, over a track that spans the axis (its parent is `relative`). */
export function PlayheadLine({ playhead, axis, className }: { playhead: Playhead | null; axis: TimeAxis; className?: string }) {
  const t = useSyncExternalStore(playhead?.subscribe ?? noSubscribe, playhead?.get ?? noValue, noValue);
  if (t === null || t < axis.start || t > axis.end) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="playhead"
      data-t={Math.round(t)}
      className={cn('pointer-events-none absolute inset-y-0 z-10 w-px bg-red-500', className)}
      style={{ left: `${axisFraction(axis, t) * 100}%` }}
    >
      <span className="absolute -top-0.5 -left-[3px] size-[7px] rounded-full bg-red-500" />
    </div>
  );
}

const noSubscribe = () => () => {};
const noValue = () => null;
