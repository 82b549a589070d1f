// Reading the page: snapshots with refs (and their diffs), extraction, screenshots, waiting for a
// condition, the page's own JavaScript, and what the page did meanwhile (observe).
import { createHash } from 'node:crypto';
import { extractExpression, type Extracted } from '../data-api/page-scripts';
import { diffSnapshots, DEFAULT_MAX_LINES, formatDiff, formatSnapshot, header, MAX_LINES_LIMIT, type RawSnapshot } from './snapshot';
import type { AgentSession } from './session';
import type { Tab } from './tab';
import { AgentError, type ExtractOptions, type ScreenshotOptions, type SnapshotOptions, type WaitOptions } from './types';

/** Takes a snapshot of the current tab, registers its refs, and formats it (or its diff). */
export async function snapshot(session: AgentSession, options: SnapshotOptions = {}): Promise<string> {
  const tab = await session.tab();
  const scope = options.scope ?? 'viewport';
  const maxLines = Math.min(MAX_LINES_LIMIT, Math.max(1, Math.floor(options.maxLines ?? DEFAULT_MAX_LINES)));
  const raw = await tab.call<RawSnapshot>('snapshot', [{ scope, interactiveOnly: options.interactiveOnly ?? true, nextRef: session.nextRef }], { retry: true });
  registerRefs(session, tab, raw);
  const formatted = formatSnapshot(raw, { scope, maxLines });
  const previous = tab.shown;
  tab.shown = { loaderId: tab.loaderId, lines: formatted.shown };
  if (options.sinceLast && previous && previous.loaderId === tab.loaderId) {
    const diff = formatDiff(diffSnapshots(previous.lines, formatted.shown));
    return `${header(raw)}\n${diff ?? NO_CHANGE}`;
  }
  return formatted.text;
}

function registerRefs(session: AgentSession, tab: Tab, raw: RawSnapshot): void {
  session.nextRef = Math.max(session.nextRef, raw.nextRef);
  for (const line of raw.lines) if (line.ref && !session.refs.has(line.ref)) session.refs.set(line.ref, { tab, loaderId: tab.loaderId });
  // The table only grows with new elements; a page that keeps adding them should not grow it forever.
  if (session.refs.size > 50_000) for (const key of [...session.refs.keys()].slice(0, 10_000)) session.refs.delete(key);
}

/**
 * After an action: what changed. A new document gets a full snapshot; the same document gets the
 * diff against the last snapshot (or a full one when there was none).
 */
export async function afterAction(session: AgentSession, tab: Tab, loaderBefore: string): Promise<string> {
  if (tab.loaderId !== loaderBefore || !tab.shown || tab.shown.loaderId !== tab.loaderId) {
    const full = await snapshot(session);
    return tab.loaderId !== loaderBefore ? `The page changed to a new document; refs from before are no longer valid.\n${full}` : full;
  }
  const changes = await snapshot(session, { sinceLast: true });
  if (!changes.endsWith(NO_CHANGE)) return changes;
  const text = await tab.call<{ added: string[]; removed: string[]; more: number } | null>('textChanges', [TEXT_CHANGE_LINES]).catch(() => null);
  if (!text || text.added.length + text.removed.length === 0) return changes;
  const rows = [...text.added.map((line) => `+ ${line}`), ...text.removed.map((line) => `- ${line}`)];
  if (text.more > 0) rows.push(`… ${text.more} more lines changed: read the page with browser_extract.`);
  return `${changes.slice(0, -NO_CHANGE.length)}No element changed; the page's text did:\n${rows.join('\n')}`;
}

const NO_CHANGE = 'No change since the last snapshot.';
/** Lines of changed text reported after an action, each way. */
const TEXT_CHANGE_LINES = 20;

export async function extract(session: AgentSession, options: ExtractOptions = {}): Promise<string> {
  const tab = await session.tab();
  const format = options.format ?? 'markdown';
  const maxChars = Math.min(100_000, Math.max(100, Math.floor(options.maxChars ?? 8_000)));
  const extracted = await tab.evaluateInWorld<Extracted>(
    extractExpression(format === 'links' ? { links: true, metadata: true } : { formats: [format], metadata: true }),
    { retry: true },
  );
  let body: string;
  if (format === 'links')
    body = (extracted.links ?? []).map((l) => `- [${l.text.replace(/\s+/g, ' ').slice(0, 120) || '(no text)'}](${l.url})`).join('\n') || '(no links)';
  else body = extracted.content[format] ?? '';
  const title = extracted.metadata?.title ? `# ${extracted.metadata.title}\n` : '';
  const source = `Source: ${tab.url}\n`;
  if (body.length > maxChars) {
    return `${source}${title}${body.slice(0, maxChars)}\n… truncated at ${maxChars.toLocaleString('en-US')} of ${body.length.toLocaleString('en-US')} characters: raise maxChars (up to 100,000) or scroll and extract again.`;
  }
  return `${source}${title}${body || '(the page has no readable text)'}`;
}

export async function screenshot(session: AgentSession, options: ScreenshotOptions = {}): Promise<{ image: Buffer | null; note: string }> {
  const tab = await session.tab();
  const quality = Math.min(100, Math.max(1, Math.floor(options.quality ?? 60)));
  const params: Record<string, unknown> = { format: 'jpeg', quality };
  let what = 'the viewport';
  if (options.ref) {
    const ref = checkRef(session, tab, options.ref);
    const box = await tab.call<{ error?: string; x: number; y: number; width: number; height: number }>('boxFor', [ref]);
    if (box.error) throw refError(session, options.ref, box.error);
    if (box.width < 1 || box.height < 1) throw new AgentError('not_actionable', `${options.ref} has no visible box to capture`);
    params.clip = { x: box.x, y: box.y, width: Math.min(box.width, 4_096), height: Math.min(box.height, 8_192), scale: 1 };
    params.captureBeyondViewport = true;
    what = options.ref;
  } else if (options.fullPage) {
    const { cssContentSize } = await tab.send('Page.getLayoutMetrics');
    const height = Math.min(Math.ceil(cssContentSize.height), 16_384);
    params.clip = { x: 0, y: 0, width: Math.min(Math.ceil(cssContentSize.width), 4_096), height, scale: 1 };
    params.captureBeyondViewport = true;
    what = height < cssContentSize.height ? `the first ${height} px of the page` : 'the whole page';
  }
  const { data } = await tab.send('Page.captureScreenshot', params);
  const hash = createHash('sha1').update(data).digest('hex');
  const unchanged = session.lastShot === hash;
  session.lastShot = hash;
  if (options.skipIfUnchanged && unchanged) return { image: null, note: `Unchanged since the previous screenshot (${what}).` };
  return { image: Buffer.from(data, 'base64'), note: `Screenshot of ${what} at ${tab.url} (JPEG, quality ${quality}).` };
}

export async function wait(session: AgentSession, options: WaitOptions): Promise<string> {
  if (!options.text && !options.textGone && !options.selector && !options.urlContains)
    throw new AgentError('invalid', 'say what to wait for: text, textGone, selector or urlContains');
  const timeoutMs = Math.min(30_000, Math.max(100, Math.floor(options.timeoutMs ?? 5_000)));
  const tab = await session.tab();
  const deadline = Date.now() + timeoutMs;
  const condition = { text: options.text, textGone: options.textGone, selector: options.selector, urlContains: options.urlContains };
  for (;;) {
    const met = await tab.call<boolean | { error: string }>('waitCheck', [condition], { retry: true }).catch((error: unknown) => {
      // A navigation in progress has no document to read yet: try again.
      if (error instanceof AgentError && error.code === 'stale_ref') return false;
      throw error;
    });
    if (typeof met === 'object' && met.error) throw new AgentError('invalid', `"${options.selector}" is not a valid CSS selector`);
    if (met === true) return `Done: ${describe(condition)} (${tab.url}).`;
    if (Date.now() >= deadline)
      throw new AgentError('timeout', `Not within ${timeoutMs} ms: ${describe(condition)}. Take a snapshot to see what the page shows.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function describe(condition: WaitOptions): string {
  return [
    condition.text && `the text ${JSON.stringify(condition.text)} is on the page`,
    condition.textGone && `the text ${JSON.stringify(condition.textGone)} is gone`,
    condition.selector && `${condition.selector} is visible`,
    condition.urlContains && `the address contains ${JSON.stringify(condition.urlContains)}`,
  ]
    .filter(Boolean)
    .join(' and ');
}

/** Runs an expression in the page's own JavaScript world (what the page's scripts see). */
export async function evaluate(session: AgentSession, expression: string): Promise<string> {
  const tab = await session.tab();
  const { result, exceptionDetails } = await tab.send(
    'Runtime.evaluate',
    { expression, returnByValue: true, awaitPromise: true, userGesture: true, timeout: 10_000 },
    15_000,
  );
  if (exceptionDetails)
    throw new AgentError('invalid', `The expression threw: ${(exceptionDetails.exception?.description ?? exceptionDetails.text).split('\n')[0]}`);
  const value = result.unserializableValue ?? (result.type === 'undefined' ? 'undefined' : JSON.stringify(result.value ?? result.description ?? null));
  return value.length > 8_000 ? `${value.slice(0, 8_000)}\n… truncated at 8,000 of ${value.length.toLocaleString('en-US')} characters` : value;
}

export function observe(session: AgentSession): string {
  const entries = session.observations.report();
  const lines = entries.map((e) => `${e.kind}: ${e.text}`);
  if (!session.options.pageConsole) lines.push('(Console output is not captured in this session: open it with pageConsole true to capture it.)');
  return entries.length === 0 ? ['Nothing new since the last observe.', ...lines].join('\n') : lines.join('\n');
}

/** A ref of this session that belongs to the current tab and document, or an error that says why not. */
export function checkRef(session: AgentSession, tab: Tab, ref: string): string {
  const normalized = ref.trim().replace(/^@/, '');
  if (!/^e\d{1,9}$/.test(normalized)) throw new AgentError('invalid', `"${ref}" is not a ref; refs look like e12 and come from browser_snapshot`);
  const known = session.refs.get(normalized);
  if (!known) {
    const issued = Number(normalized.slice(1)) < session.nextRef;
    throw new AgentError(
      issued ? 'stale_ref' : 'unknown_ref',
      issued ? staleMessage(normalized) : `${normalized} was never handed out in this session; take a snapshot (browser_snapshot) and use its refs`,
    );
  }
  if (known.tab !== tab)
    throw new AgentError('stale_ref', `${normalized} belongs to another tab; select it with browser_tabs, or take a new snapshot of this one`);
  if (known.loaderId !== tab.loaderId) throw new AgentError('stale_ref', staleMessage(normalized, tab.url));
  return normalized;
}

export function refError(session: AgentSession, ref: string, error: string, detail?: string): AgentError {
  switch (error) {
    case 'gone':
    case 'unknown':
      return new AgentError('stale_ref', staleMessage(ref));
    case 'hidden':
      return new AgentError('not_actionable', `${ref} is not visible now; take a new snapshot to see what is`);
    case 'disabled':
      return new AgentError('not_actionable', `${ref} is disabled`);
    case 'offscreen':
      return new AgentError('not_actionable', `${ref} could not be scrolled into view`);
    case 'covered':
      return new AgentError(
        'not_actionable',
        `${ref} is covered by ${detail ?? 'another element'} at its centre; close or scroll away what covers it, then take a new snapshot`,
      );
    default:
      return new AgentError('browser', `${ref}: ${error}`);
  }
}

function staleMessage(ref: string, url?: string): string {
  return `${ref} is stale: the element is no longer on the page, or the page changed${url ? ` (now ${url})` : ''}. Take a new snapshot (browser_snapshot) and use its refs.`;
}
