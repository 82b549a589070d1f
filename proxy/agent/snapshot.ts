// A snapshot as the model reads it: a header (title, address, scroll position), one line per element,
// and a footer that says what was left out and how to get it. Two budgets hold together: a line cap
// (default 200) and a byte cap (16 KB), so a page of a thousand controls stays a readable tool
// result (docs/agents.md, "Snapshots"). The diff after an action lists only the lines that changed.

export interface SnapshotLine {
  /** `e12`, or null for a context line (heading, landmark). */
  ref: string | null;
  text: string;
}

export interface RawSnapshot {
  url: string;
  title: string;
  lines: SnapshotLine[];
  /** Elements outside the viewport (scope `viewport` only). */
  above: number;
  below: number;
  nextRef: number;
  crossOriginFrames: number;
  truncatedWalk: boolean;
  scroll: ScrollState;
}

export interface ScrollState {
  x: number;
  y: number;
  width: number;
  height: number;
  viewport: number;
  viewportWidth: number;
}

export const DEFAULT_MAX_LINES = 200;
export const MAX_LINES_LIMIT = 1_000;
/** About 4,000 tokens: small next to the 25,000-token tool-result cap of common agent tools. */
export const MAX_SNAPSHOT_BYTES = 16 * 1024;

export interface FormatOptions {
  scope: 'viewport' | 'full';
  maxLines: number;
  maxBytes?: number;
}

export function header(raw: Pick<RawSnapshot, 'url' | 'title' | 'scroll'>): string {
  const { y, height, viewport } = raw.scroll;
  const position = height > viewport ? `, scrolled ${y} of ${height - viewport} px` : '';
  return `Page: ${raw.title ? `${JSON.stringify(raw.title.slice(0, 120))} ` : ''}${raw.url.slice(0, 300)}${position}`;
}

/** The snapshot's text and the lines it showed (kept for the next diff). */
export function formatSnapshot(raw: RawSnapshot, options: FormatOptions): { text: string; shown: SnapshotLine[] } {
  const maxBytes = options.maxBytes ?? MAX_SNAPSHOT_BYTES;
  const head = header(raw);
  const out: string[] = [head];
  let bytes = Buffer.byteLength(head) + 1;
  const shown: SnapshotLine[] = [];
  // The footer needs room too: keep 400 bytes for it.
  for (const line of raw.lines) {
    if (shown.length >= options.maxLines) break;
    const size = Buffer.byteLength(line.text) + 1;
    if (bytes + size > maxBytes - 400) break;
    out.push(line.text);
    shown.push(line);
    bytes += size;
  }
  if (raw.lines.length === 0)
    out.push(
      options.scope === 'viewport'
        ? '(nothing to click or type into in view; read the text with browser_extract)'
        : '(nothing to click or type into on this page; read the text with browser_extract)',
    );
  const notes: string[] = [];
  const cut = raw.lines.length - shown.length;
  if (cut > 0) {
    const why = shown.length >= options.maxLines ? `the ${options.maxLines}-line cap` : `the ${Math.round(maxBytes / 1024)} KB cap`;
    const larger = options.maxLines < MAX_LINES_LIMIT && shown.length >= options.maxLines ? ` raise maxLines (up to ${MAX_LINES_LIMIT}),` : '';
    notes.push(`… ${cut} more element${cut === 1 ? '' : 's'} not shown (${why}):${larger} scroll, or read the page with browser_extract.`);
  }
  if (options.scope === 'viewport' && (raw.above > 0 || raw.below > 0)) {
    const parts = [raw.below > 0 && `${raw.below} below`, raw.above > 0 && `${raw.above} above or beside`].filter(Boolean).join(', ');
    notes.push(`Outside the viewport: ${parts}. Scroll, or snapshot with scope "full".`);
  }
  if (raw.crossOriginFrames > 0) notes.push(`${raw.crossOriginFrames} cross-origin frame${raw.crossOriginFrames === 1 ? ' was' : 's were'} not read.`);
  if (raw.truncatedWalk) notes.push('The page is very large: only its first 60,000 elements were read.');
  return { text: [...out, ...notes].join('\n'), shown };
}

/**
 * What changed between two snapshots of the same document: lines whose ref is new (+), gone (-),
 * or whose text changed (~). Context lines count by their text.
 */
export function diffSnapshots(before: SnapshotLine[], after: SnapshotLine[]): { added: SnapshotLine[]; removed: SnapshotLine[]; changed: SnapshotLine[] } {
  const keyOf = (line: SnapshotLine) => line.ref ?? `text:${line.text}`;
  const old = new Map(before.map((line) => [keyOf(line), line]));
  const now = new Map(after.map((line) => [keyOf(line), line]));
  const added: SnapshotLine[] = [];
  const changed: SnapshotLine[] = [];
  for (const [key, line] of now) {
    const was = old.get(key);
    if (!was) added.push(line);
    else if (was.text !== line.text) changed.push(line);
  }
  const removed = [...old].filter(([key]) => !now.has(key)).map(([, line]) => line);
  return { added, removed, changed };
}

/** The diff as text; null when nothing changed. Large diffs are capped like snapshots. */
export function formatDiff(diff: ReturnType<typeof diffSnapshots>, maxBytes = MAX_SNAPSHOT_BYTES): string | null {
  const rows = [...diff.added.map((l) => `+ ${l.text}`), ...diff.changed.map((l) => `~ ${l.text}`), ...diff.removed.map((l) => `- ${l.text}`)];
  if (rows.length === 0) return null;
  const out: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(row) + 1;
    if (bytes + size > maxBytes - 200) {
      out.push(`… ${rows.length - out.length} more changes: take a full snapshot (browser_snapshot).`);
      break;
    }
    out.push(row);
    bytes += size;
  }
  return out.join('\n');
}
