// The downloads a traced session's browser made, read from the download events the client already
// gets (Playwright and puppeteer turn them on with setDownloadBehavior's `eventsEnabled`, or
// Page.enable for the Page.* forms). Chromium may send both forms of one download; each is kept
// once. The completed ones are the session's downloads where the provider keeps the files itself
// (proxy/plugins/trace/index.ts, docs/connect.md "Downloads").
import { clip, URL_MAX_CHARS, type DownloadEvent } from '../../../lib/traces/format';
import { redactUrl } from '../../../lib/traces/redact';

export const DOWNLOAD_METHODS = ['Browser.downloadWillBegin', 'Browser.downloadProgress', 'Page.downloadWillBegin', 'Page.downloadProgress'];

/** Downloads followed per session: far more than any real session makes, bounded for a hostile one. */
const MAX_FOLLOWED = 1_000;

export interface CompletedDownload {
  name: string;
  url: string;
  bytes: number;
  /** When it completed (Unix ms). */
  at: number;
}

type Params = Record<string, unknown>;

export class DownloadWatch {
  private readonly begun = new Map<string, { name: string; url: string; tab: string | null }>();
  private readonly ended = new Set<string>();
  /** Completed downloads in the order they completed. */
  readonly completed: CompletedDownload[] = [];

  /** `extra`: the router's own names to redact in URLs. */
  constructor(private readonly extra: ReadonlySet<string>) {}

  /** The trace event for a download event, or null when this download's state was seen already. */
  seen(method: string, p: Params, tab: string | null, now: number): Omit<DownloadEvent, 'seq'> | null {
    const guid = typeof p.guid === 'string' ? p.guid : '';
    if (!guid) return null;
    if (method.endsWith('WillBegin')) {
      if (this.begun.has(guid) || this.begun.size >= MAX_FOLLOWED) return null;
      const begun = { name: clip(String(p.suggestedFilename ?? '')), url: clip(redactUrl(String(p.url ?? ''), this.extra), URL_MAX_CHARS), tab };
      this.begun.set(guid, begun);
      return { kind: 'download', t: now, tab, guid, state: 'started', url: begun.url, name: begun.name };
    }
    const state = p.state;
    if ((state !== 'completed' && state !== 'canceled') || this.ended.has(guid) || !this.begun.has(guid)) return null;
    this.ended.add(guid);
    const begun = this.begun.get(guid)!;
    const bytes = Number(p.receivedBytes ?? p.totalBytes ?? 0);
    if (state === 'completed') this.completed.push({ name: begun.name, url: begun.url, bytes, at: now });
    return { kind: 'download', t: now, tab: begun.tab ?? tab, guid, state, bytes };
  }
}
