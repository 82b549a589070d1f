// What the video of a recording shows at each moment (docs/recordings.md, "Encoding"). Frames
// arrive only when a page's pixels change, so the video is a grid of slots at a constant frame
// rate, each showing the newest frame of one tab as of its time; consecutive slots showing the same
// frame form a run. With several tabs the video follows the tab whose frame changed last, but
// stays on a tab that is still changing for at least TAB_HOLD_MS so two animating tabs do not
// flicker (a tab at rest, such as the browser's blank start tab, is left at once). Pure: the encoder
// feeds it the manifest's lines in order and writes out the runs it returns.
import type { FrameLine, ManifestLine } from './format';

export const VIDEO_FPS = 25;
export const SLOT_MS = 1000 / VIDEO_FPS;
export const TAB_HOLD_MS = 1_000;
/**
 * A frame held at least twice this long is encoded once as a clip of this many slots, which the
 * video then repeats: an idle stretch costs one clip, whatever its length. Ten seconds is also
 * x264's default keyframe interval, so the repeats cost no more bytes than encoding them would.
 */
export const HOLD_CLIP_SLOTS = 10 * VIDEO_FPS;

export interface Run<P> {
  frame: FrameLine;
  /** What the caller attached to the frame (its JPEG bytes when encoding). */
  payload: P;
  slots: number;
}

interface Shown<P> {
  frame: FrameLine;
  payload: P;
}

export class Timeline<P> {
  private nextSlot = 0;
  /** Slots before the first frame: they show the first frame rather than nothing. */
  private leading = 0;
  private readonly latest = new Map<string, Shown<P>>();
  private readonly closed = new Set<string>();
  /** The open tab whose frame changed last. */
  private lastChanged: string | null = null;
  private current: string | null = null;
  private switchedAt = -Infinity;
  private run: Run<P> | null = null;
  private done: Run<P>[] = [];

  constructor(
    /** The video's length in slots (the session's length at VIDEO_FPS). */
    readonly totalSlots: number,
    private readonly slotMs = SLOT_MS,
    private readonly holdMs = TAB_HOLD_MS,
  ) {}

  /** Takes the next manifest line (in the order captured); returns the runs it completed. */
  push(line: ManifestLine, payload: P): Run<P>[] {
    // A slot shows what was on screen at its start, so the slots before this line are final.
    this.finalizeBefore(line.t);
    if (line.k === 'f') {
      this.latest.set(line.target, { frame: line, payload });
      this.closed.delete(line.target);
      this.lastChanged = line.target;
    } else if (line.event === 'closed') {
      this.closed.add(line.target);
      if (this.lastChanged === line.target) this.lastChanged = this.newestOpenTab();
    }
    return this.take();
  }

  /** The session ended: the slots left hold the last frame. */
  finish(): Run<P>[] {
    this.finalizeBefore(Infinity);
    // Frames only after the session's end (clocks that disagree): the video shows the newest.
    const newest = this.lastChanged === null ? undefined : this.latest.get(this.lastChanged);
    if (!this.run && this.leading > 0 && newest) this.run = { ...newest, slots: this.leading };
    if (this.run) this.done.push(this.run);
    this.run = null;
    return this.take();
  }

  private take(): Run<P>[] {
    const runs = this.done;
    this.done = [];
    return runs;
  }

  private finalizeBefore(t: number): void {
    while (this.nextSlot < this.totalSlots && this.nextSlot * this.slotMs < t) this.finalize(this.nextSlot++ * this.slotMs);
  }

  private finalize(at: number): void {
    const candidate = this.lastChanged;
    if (candidate !== null && candidate !== this.current) {
      const currentGone = this.current === null || this.closed.has(this.current);
      // The hold is for a tab that is still changing; one that has not changed since the video
      // came to it (a blank start tab, a page at rest) is left at once.
      const currentStill = (this.latest.get(this.current!)?.frame.t ?? -Infinity) <= this.switchedAt;
      if (currentGone || currentStill || at - this.switchedAt >= this.holdMs) {
        this.current = candidate;
        this.switchedAt = at;
      }
    }
    const shown = this.current === null ? undefined : this.latest.get(this.current);
    if (!shown) {
      this.leading++;
      return;
    }
    if (this.run && this.run.frame.i === shown.frame.i) {
      this.run.slots++;
      return;
    }
    if (this.run) this.done.push(this.run);
    this.run = { frame: shown.frame, payload: shown.payload, slots: 1 + this.leading };
    this.leading = 0;
  }

  private newestOpenTab(): string | null {
    let best: Shown<P> | null = null;
    for (const [target, shown] of this.latest) {
      if (!this.closed.has(target) && (!best || shown.frame.t > best.frame.t)) best = shown;
    }
    return best?.frame.target ?? null;
  }
}

/**
 * How a run is written: `hold` (when long enough) is a clip encoded once and repeated `reps` times,
 * then `rest` more slots of the same frame are encoded with what follows.
 */
export function splitRun(slots: number, clip = HOLD_CLIP_SLOTS): { hold: { clip: number; reps: number } | null; rest: number } {
  if (slots < 2 * clip) return { hold: null, rest: slots };
  const reps = Math.floor(slots / clip);
  return { hold: { clip, reps }, rest: slots - reps * clip };
}

/** One piece of the video: `frames` encoded frames, played `reps` times in a row. */
export interface Segment {
  frames: number;
  reps: number;
}

/** Collects the runs into segments: the stretches encoded as they are and the repeated clips. */
export class SegmentPlan {
  readonly segments: Segment[] = [];
  private open = 0;

  add(slots: number): void {
    const { hold, rest } = splitRun(slots);
    if (hold) {
      this.close();
      this.segments.push({ frames: hold.clip, reps: hold.reps });
    }
    this.open += rest;
  }

  close(): Segment[] {
    if (this.open > 0) this.segments.push({ frames: this.open, reps: 1 });
    this.open = 0;
    return this.segments;
  }
}

/** The encoded frame numbers where each segment after the first starts (keyframes, file cuts). */
export function cutFrames(segments: readonly Segment[]): number[] {
  const cuts: number[] = [];
  let at = 0;
  for (const segment of segments.slice(0, -1)) cuts.push((at += segment.frames));
  return cuts;
}
