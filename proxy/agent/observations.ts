// What the page did besides what the model asked: console output (when the session captures it),
// failed requests, dialogs (dismissed so they cannot block the page), refused downloads and
// popups. Each kind keeps its last 50 entries; `observe` reports what is new since it last ran.

export type ObservationKind = 'console' | 'request' | 'dialog' | 'download' | 'popup';

export interface Observation {
  kind: ObservationKind;
  at: number;
  text: string;
}

const PER_KIND = 50;

export class Observations {
  private readonly entries: Record<ObservationKind, Observation[]> = { console: [], request: [], dialog: [], download: [], popup: [] };
  private seq = 0;
  private readonly order = new WeakMap<Observation, number>();
  private seenUpTo = 0;
  /** Set once per action so its result can mention popups and dialogs at once. */
  private readonly fresh: Observation[] = [];

  console(level: string, text: string): void {
    this.add('console', `[${level}] ${clip(text, 500)}`);
  }

  failedRequest(url: string, reason: string, type: string | undefined): void {
    this.add('request', `${type ? `${type} ` : ''}${redactUrl(url)} — ${clip(reason, 200)}`);
  }

  dialog(type: string, message: string, url: string): void {
    this.add(
      'dialog',
      `${type} ${JSON.stringify(clip(message, 300))} on ${redactUrl(url)} (${type === 'alert' || type === 'beforeunload' ? 'accepted' : 'dismissed'})`,
      true,
    );
  }

  download(url: string, filename: string): void {
    this.add('download', `${JSON.stringify(clip(filename, 200))} from ${redactUrl(url)} (refused: downloads are off)`, true);
  }

  popup(url: string, tabId: string): void {
    this.add(
      'popup',
      `a new tab ${tabId} opened${url && url !== 'about:blank' ? ` at ${redactUrl(url)}` : ''}; switch with browser_tabs {"action":"select","tabId":"${tabId}"}`,
      true,
    );
  }

  /** Popups, dialogs and downloads since the last call: an action's result mentions them. */
  takeFresh(): string[] {
    return this.fresh.splice(0).map((o) => o.text);
  }

  /** Entries newer than the last report, oldest first, and marks them reported. */
  report(): { kind: ObservationKind; text: string }[] {
    const all = (Object.keys(this.entries) as ObservationKind[]).flatMap((kind) => this.entries[kind]);
    const fresh = all.filter((o) => (this.order.get(o) ?? 0) > this.seenUpTo).sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
    this.seenUpTo = this.seq;
    return fresh.map((o) => ({ kind: o.kind, text: o.text }));
  }

  private add(kind: ObservationKind, text: string, notable = false): void {
    const entry: Observation = { kind, at: Date.now(), text };
    this.order.set(entry, ++this.seq);
    const list = this.entries[kind];
    list.push(entry);
    if (list.length > PER_KIND) list.shift();
    if (notable) {
      this.fresh.push(entry);
      if (this.fresh.length > PER_KIND) this.fresh.shift();
    }
  }
}

/** Origin and path only: query strings and fragments often carry tokens. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'data:') return 'data:…';
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return clip(url, 100);
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
