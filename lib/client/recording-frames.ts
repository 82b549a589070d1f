// The frame player's data (docs/recordings.md, "Watching"): a recording's frames are JPEGs packed in
// chunk files, located by the manifest (chunk, byte offset, length, time). The player fetches a
// chunk as one ArrayBuffer, cuts the frames it shows out of it into Blob URLs, and forgets both
// again: a few chunks and a few hundred frame URLs at most, whatever the recording's length.
import type { ManifestFrame, ManifestTarget } from '../recordings/build-manifest';

/** A frame as the manifest lists it (GET /v1/replays/:id/manifest); `t` is milliseconds since the recording started. */
export type PlayerFrame = ManifestFrame;

/** The frame showing at `t`: the last one at or before it, or -1 before the first. `frames` is sorted by `t`. */
export function frameIndexAt(frames: readonly Pick<PlayerFrame, 't'>[], t: number): number {
  let low = 0;
  let high = frames.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (frames[middle]!.t <= t) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** One tab's frames in time order (the manifest lists every tab's frames interleaved). */
export function framesOfTarget<F extends Pick<PlayerFrame, 't' | 'targetId'>>(frames: readonly F[], targetId: string): F[] {
  return frames.filter((f) => f.targetId === targetId).sort((a, b) => a.t - b.t);
}

/** The first chunk after `chunk` that holds one of these frames, to fetch before playback needs it. */
/** How far ahead of a tab's first frame that frame already shows. */
export const LEAD_IN_MS = 1_500;

/** The tab shown first: the one with the most frames (a script's page rather than the browser's blank start tab). */
export const busiest = <T extends { targetId: string; frameCount: number }>(targets: readonly T[]) =>
  targets.reduce<T | null>((best, t) => (!best || t.frameCount > best.frameCount ? t : best), null)?.targetId ?? null;

/** Where a tab is shown from: `position`, or its first frame when `position` is before it by more than the lead-in. */
export function openingPosition(frames: readonly Pick<PlayerFrame, 't'>[], position: number): number {
  const first = frames[0];
  return first && first.t - position > LEAD_IN_MS ? first.t : position;
}

type TabPage = ManifestTarget['pages'][number];

/** What a page is called in the players: its title, else its address. */
export const pageName = (page: TabPage) => page.title || page.url;

/** A tab's name: the first page it showed, and how many it went on to. */
export function tabLabel(target: Pick<ManifestTarget, 'title' | 'url' | 'pages'>, n: number): string {
  const [first, ...rest] = target.pages;
  const name = first ? pageName(first) : target.title || target.url || `Tab ${n}`;
  return rest.length > 0 ? `${name} + ${rest.length} more ${rest.length === 1 ? 'page' : 'pages'}` : name;
}

/** Which of a tab's pages it shows `t` ms into the recording (its first, before it had any). */
export function pageAt(pages: readonly Pick<TabPage, 't'>[], t: number): number {
  const after = pages.findIndex((page) => page.t > t);
  return Math.max(0, (after < 0 ? pages.length : after) - 1);
}

export function nextChunkAfter(frames: readonly Pick<PlayerFrame, 'chunk'>[], from: number, chunk: number): number | null {
  for (let i = Math.max(0, from); i < frames.length; i++) if (frames[i]!.chunk > chunk) return frames[i]!.chunk;
  return null;
}

/** A playback position as a clock: 0:07, 12:34, 1:02:03. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

const MAX_CHUNKS = 3;
const MAX_URLS = 240;

/**
 * Chunks and frame URLs of one recording, both kept in least-recently-used order and bounded.
 * Every URL it made is revoked when it is evicted or when the store is disposed.
 */
export class FrameStore {
  private readonly chunks = new Map<number, Promise<ArrayBuffer>>();
  private readonly urls = new Map<number, string>();
  private readonly aborter = new AbortController();
  private disposed = false;

  constructor(private readonly fetchChunk: (index: number, signal: AbortSignal) => Promise<ArrayBuffer>) {}

  /** The frame's URL if it is already made (no fetch). */
  peek(frame: Pick<PlayerFrame, 'index'>): string | undefined {
    const url = this.urls.get(frame.index);
    if (url) this.touch(this.urls, frame.index, url);
    return url;
  }

  /** The frame's URL, fetching its chunk first when needed. */
  async url(frame: PlayerFrame): Promise<string> {
    const ready = this.peek(frame);
    if (ready) return ready;
    let buffer = await this.chunk(frame.chunk);
    // A running recording's last chunk grows: a frame past the end of the copy we have is in a newer one.
    if (frame.offset + frame.length > buffer.byteLength) {
      this.chunks.delete(frame.chunk);
      buffer = await this.chunk(frame.chunk);
      if (frame.offset + frame.length > buffer.byteLength) throw new Error(`frame ${frame.index} is not in chunk ${frame.chunk} yet`);
    }
    const existing = this.urls.get(frame.index);
    if (existing) return existing;
    if (this.disposed) throw new Error('the player was closed');
    const url = URL.createObjectURL(new Blob([new Uint8Array(buffer, frame.offset, frame.length)], { type: 'image/jpeg' }));
    this.urls.set(frame.index, url);
    while (this.urls.size > MAX_URLS) {
      const [oldest, oldUrl] = this.urls.entries().next().value!;
      this.urls.delete(oldest);
      URL.revokeObjectURL(oldUrl);
    }
    return url;
  }

  /** Starts fetching a chunk playback will soon need. */
  prefetch(index: number): void {
    this.chunk(index).catch(() => {
      // fetched again, with its error shown, when a frame of it is shown
    });
  }

  dispose(): void {
    this.disposed = true;
    this.aborter.abort();
    for (const url of this.urls.values()) URL.revokeObjectURL(url);
    this.urls.clear();
    this.chunks.clear();
  }

  private chunk(index: number): Promise<ArrayBuffer> {
    const cached = this.chunks.get(index);
    if (cached) {
      this.touch(this.chunks, index, cached);
      return cached;
    }
    const loading = this.fetchChunk(index, this.aborter.signal);
    // A failed fetch is not kept: the next frame of that chunk asks again.
    loading.catch(() => this.chunks.get(index) === loading && this.chunks.delete(index));
    this.chunks.set(index, loading);
    while (this.chunks.size > MAX_CHUNKS) this.chunks.delete(this.chunks.keys().next().value!);
    return loading;
  }

  private touch<V>(map: Map<number, V>, key: number, value: V): void {
    map.delete(key);
    map.set(key, value);
  }
}
