// What a recording is called in lists (docs/recordings.md): the first title any of its tabs showed,
// and how many pages it visited (distinct addresses across its tabs, the #fragment aside; blank
// and browser-internal pages not counted). And what one tab is called in the players: the pages it
// showed, in order, each with the title it got (TabPages). Read from the tab events as the capture
// writes them.

/** Addresses remembered per recording: plenty for a name, bounded for a hostile session. */
const MAX_PAGES = 10_000;

export class PagesSeen {
  private readonly urls = new Set<string>();
  private firstTitle: string | null = null;

  /** A tab opened or changed its address or title. */
  see(url: string | undefined, title: string | undefined): void {
    const page = url ? pageOf(url) : null;
    if (page && this.urls.size < MAX_PAGES) this.urls.add(page);
    // A page's title: not a blank or browser page's, nor the address a tab shows until its page has one.
    if (this.firstTitle === null && page && title && !isAddress(title, url!)) this.firstTitle = title.slice(0, 300);
  }

  get title(): string | null {
    return this.firstTitle;
  }

  get count(): number {
    return this.urls.size;
  }
}

/** One page a tab showed: from `t` (ms since the recording started) until the tab's next page. */
export interface VisitedPage {
  t: number;
  url: string;
  /** The page's own title; empty until it had one (a tab shows its address until then). */
  title: string;
}

/** Pages kept per tab: the first ones (a tab is named by them), bounded for a hostile session. */
export const MAX_TAB_PAGES = 100;

/** The pages one tab showed, in order: a new entry when its address changes (the #fragment aside). */
export class TabPages {
  readonly pages: VisitedPage[] = [];
  private current: string | null = null;

  /** The tab opened or changed its address or title, `t` ms after the recording started. */
  see(t: number, url: string | undefined, title: string | undefined): void {
    if (url !== undefined) {
      const page = pageOf(url);
      if (page !== this.current) {
        this.current = page;
        if (page && this.pages.length < MAX_TAB_PAGES) this.pages.push({ t, url, title: '' });
      }
    }
    const last = this.pages.at(-1);
    if (last && this.current && pageOf(last.url) === this.current && title && !isAddress(title, url ?? last.url)) last.title = title.slice(0, 300);
  }
}

/** Chromium's stand-in title: the address itself, or without its scheme and percent-encoding. */
function isAddress(title: string, url: string): boolean {
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  let decoded = bare;
  try {
    decoded = decodeURI(bare);
  } catch {
    // not percent-encoded as a URI: compared as it is
  }
  return title === url || title === bare || title === decoded;
}

function pageOf(url: string): string | null {
  if (!/^(https?|file|data):/i.test(url)) return null; // about:blank, chrome://…, devtools://…
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
