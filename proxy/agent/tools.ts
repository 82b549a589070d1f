// The agent tools: one definition each (name, description, input schema, hints), rendered by the MCP
// surface and used by the command line alike, so their wording cannot drift apart. Descriptions are
// written for a language model: what the tool does, when to use it, what it returns.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape } from 'zod';
import { log } from '../../lib/log';
import { act, navigate, tabs } from './actions';
import { evaluate, extract, observe, screenshot, snapshot, wait } from './reading';
import type { AgentSession } from './session';
import type { SessionSet } from './session-set';
import { step, toStep } from './step-input';
import { AgentError, type OpenOptions } from './types';
import { agentError } from './cdp';

export interface ToolContext {
  sessions: SessionSet;
}

export interface AgentTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ZodRawShape;
  annotations: { readOnlyHint: boolean; openWorldHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  // The arguments were validated against inputSchema by the MCP server (or the CLI's parser).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(ctx: ToolContext, args: any): Promise<CallToolResult>;
}

const sessionId = z.string().max(64).optional().describe('The browser session (from browser_session open). Optional when only one is open.');

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

export function agentTools(): AgentTool[] {
  return [sessionTool(), navigateTool(), snapshotTool(), actTool(), extractTool(), screenshotTool(), waitTool(), tabsTool(), evalTool(), observeTool()];
}

function sessionTool(): AgentTool {
  return {
    name: 'browser_session',
    title: 'Open, list, inspect or close browsers',
    description:
      'Manage your browsers. action "open" starts a browser (routed to one of the workspace\'s browser providers) and returns its sessionId; it closes by itself after idleMinutes without a tool call (default 5). "list" shows your open browsers, "state" one browser\'s tabs and timers, "close" ends one: close browsers when done, they are billed while open. Options left out take the router\'s agent defaults.',
    inputSchema: {
      action: z.enum(['open', 'close', 'list', 'state']),
      sessionId,
      idleMinutes: z.number().min(1).max(30).optional().describe('open: close the browser after this many minutes without a tool call (1–30, default 5).'),
      record: z.boolean().optional().describe('open: record a video of the session.'),
      trace: z.boolean().optional().describe('open: keep a trace of network requests, console output and navigations.'),
      profile: z.string().max(64).nullable().optional().describe('open: a saved profile (cookies, storage) to start from, by slug; null for none.'),
      saveProfile: z.boolean().optional().describe("open: save the browser's state back to the profile when the session ends."),
      pageConsole: z.boolean().optional().describe("open: capture the page's console output for browser_observe (some bot detectors notice this)."),
    },
    annotations: { readOnlyHint: false, openWorldHint: true },
    async run({ sessions }, args) {
      switch (args.action) {
        case 'open':
          return openBrowser(sessions, args);
        case 'list':
          return listBrowsers(sessions);
        case 'state':
          return text(JSON.stringify(await sessions.get(args.sessionId).state(), null, 2));
        case 'close': {
          const session = await sessions.close(args.sessionId);
          return text(`Closed browser ${session.id}.`);
        }
      }
      throw new AgentError('invalid', 'action must be open, close, list or state');
    },
  };
}

/** browser_session "open": the browser started with the options given, and what it was opened with. */
async function openBrowser(sessions: SessionSet, args: OpenOptions): Promise<CallToolResult> {
  const session = await sessions.open({
    idleMinutes: args.idleMinutes,
    record: args.record,
    trace: args.trace,
    profile: args.profile,
    saveProfile: args.saveProfile,
    pageConsole: args.pageConsole,
  });
  const state = await session.state();
  const features = [
    state.options.record && 'recorded',
    state.options.trace && 'traced',
    state.options.profile && `profile ${state.options.profile}${state.options.saveProfile ? ' (saved at close)' : ' (read-only)'}`,
  ]
    .filter(Boolean)
    .join(', ');
  return text(
    `Opened browser ${session.id}${features ? ` (${features})` : ''}; it closes after ${state.idleMinutes} minutes without a tool call.\nNext: browser_navigate to a URL.`,
  );
}

/** browser_session "list": each open browser's current address, its tabs and when it closes. */
async function listBrowsers(sessions: SessionSet): Promise<CallToolResult> {
  const list = await sessions.list();
  if (list.length === 0) return text('No browser is open. Open one with browser_session {"action":"open"}.');
  return text(
    list
      .map(
        (s) =>
          `${s.id}: ${s.tabs.find((t) => t.current)?.url ?? 'no tab'} (${s.tabs.length} tab${s.tabs.length === 1 ? '' : 's'}, idle close at ${s.idleCloseAt})`,
      )
      .join('\n'),
  );
}

function navigateTool(): AgentTool {
  return {
    name: 'browser_navigate',
    title: 'Go to a URL',
    description:
      'Opens an http(s) URL in the current tab, waits for it to load, and returns a snapshot: the elements you can click or type into, each with a ref (e1, e2, …) to use with browser_act.',
    inputSchema: { url: z.string().min(1).max(8_000).describe('The address, such as https://example.com'), sessionId },
    annotations: { readOnlyHint: false, openWorldHint: true },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, (s) => navigate(s, args.url)),
  };
}

function snapshotTool(): AgentTool {
  return {
    name: 'browser_snapshot',
    title: 'List what can be clicked or typed into',
    description:
      'Returns the page\'s interactive elements as lines like `e4 button "Sign in"` or `e5 textbox "Email" value=""`, visible part of the page only by default. Refs stay valid while the element stays on the same page; after the page changes, a stale ref is refused: take a new snapshot. sinceLast returns only what changed.',
    inputSchema: {
      sessionId,
      scope: z.enum(['viewport', 'full']).optional().describe('viewport (default): what is in view; full: the whole page.'),
      interactiveOnly: z.boolean().optional().describe('true (default): only controls; false: also headings and landmarks for orientation.'),
      maxLines: z.number().int().min(1).max(1_000).optional().describe('At most this many element lines (default 200).'),
      sinceLast: z.boolean().optional().describe('Only the lines that changed since the previous snapshot.'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ sessions }, args) =>
      onSession(sessions, args.sessionId, (s) =>
        snapshot(s, { scope: args.scope, interactiveOnly: args.interactiveOnly, maxLines: args.maxLines, sinceLast: args.sinceLast }),
      ),
  };
}

function actTool(): AgentTool {
  return {
    name: 'browser_act',
    title: 'Click, type, select, press keys, scroll',
    description:
      'Runs steps in order with real mouse and keyboard input, each on an element ref from the latest snapshot. Stops at the first step that fails and says why. Returns what each step did and what changed on the page (lines added +, changed ~, removed -), or a new snapshot when the page navigated.',
    inputSchema: {
      sessionId,
      steps: z.array(step).min(1).max(20).describe('For example [{"action":"fill","ref":"e5","text":"ada@example.com"},{"action":"click","ref":"e7"}]'),
      stopOnError: z.boolean().optional().describe('Stop at the first failing step (default true).'),
    },
    annotations: { readOnlyHint: false, openWorldHint: true },
    run: ({ sessions }, args) =>
      onSession(sessions, args.sessionId, (s) => act(s, (args.steps as z.infer<typeof step>[]).map(toStep), { stopOnError: args.stopOnError })),
  };
}

function extractTool(): AgentTool {
  return {
    name: 'browser_extract',
    title: 'Read the page as text',
    description:
      "Returns the page's content as markdown (default), plain text, or its list of links, capped at maxChars (default 8,000). Use it to read; use browser_snapshot to find what to click.",
    inputSchema: { sessionId, format: z.enum(['markdown', 'text', 'links']).optional(), maxChars: z.number().int().min(100).max(100_000).optional() },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, (s) => extract(s, { format: args.format, maxChars: args.maxChars })),
  };
}

function screenshotTool(): AgentTool {
  return {
    name: 'browser_screenshot',
    title: 'Take a screenshot',
    description:
      'A JPEG of the viewport, of one element (ref), or of the whole page (fullPage). skipIfUnchanged returns no image when nothing changed since the previous screenshot.',
    inputSchema: {
      sessionId,
      ref: z.string().max(16).optional(),
      fullPage: z.boolean().optional(),
      quality: z.number().int().min(1).max(100).optional().describe('JPEG quality (default 60).'),
      skipIfUnchanged: z.boolean().optional(),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run({ sessions }, args) {
      const session = sessions.get(args.sessionId);
      const shot = await session.run(() =>
        screenshot(session, { ref: args.ref, fullPage: args.fullPage, quality: args.quality, skipIfUnchanged: args.skipIfUnchanged }),
      );
      const content: CallToolResult['content'] = [{ type: 'text', text: shot.note }];
      if (shot.image) content.push({ type: 'image', data: shot.image.toString('base64'), mimeType: 'image/jpeg' });
      return { content };
    },
  };
}

function waitTool(): AgentTool {
  return {
    name: 'browser_wait',
    title: 'Wait for text, an element or an address',
    description:
      'Waits until the text appears (text), disappears (textGone), a CSS selector is visible (selector), or the address contains a string (urlContains); all given must hold. Fails after timeoutMs (default 5,000, at most 30,000).',
    inputSchema: {
      sessionId,
      text: z.string().max(1_000).optional(),
      textGone: z.string().max(1_000).optional(),
      selector: z.string().max(1_000).optional(),
      urlContains: z.string().max(2_000).optional(),
      timeoutMs: z.number().int().min(100).max(30_000).optional(),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, (s) => wait(s, args)),
  };
}

function tabsTool(): AgentTool {
  return {
    name: 'browser_tabs',
    title: 'List, open, switch or close tabs',
    description:
      'action "list" shows the tabs with their tabId; "new" opens one (optionally at url) and switches to it; "select" switches to tabId; "close" closes tabId. Other tools act on the current tab.',
    inputSchema: { sessionId, action: z.enum(['list', 'new', 'select', 'close']), tabId: z.string().max(64).optional(), url: z.string().max(8_000).optional() },
    annotations: { readOnlyHint: false, openWorldHint: true },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, (s) => tabs(s, args)),
  };
}

function evalTool(): AgentTool {
  return {
    name: 'browser_eval',
    title: 'Run JavaScript in the page',
    description:
      'Evaluates a JavaScript expression in the page (as its own scripts would; promises are awaited, 10 s at most) and returns the result as JSON. Prefer browser_act for input: it behaves like a person.',
    inputSchema: { sessionId, expression: z.string().min(1).max(100_000) },
    annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: true },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, (s) => evaluate(s, args.expression)),
  };
}

function observeTool(): AgentTool {
  return {
    name: 'browser_observe',
    title: 'What the page did',
    description:
      'New since the last call: failed requests, dialogs (dismissed automatically), refused downloads, popups, and console output when the session was opened with pageConsole.',
    inputSchema: { sessionId },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ sessions }, args) => onSession(sessions, args.sessionId, async (s) => observe(s)),
  };
}

/** Runs a tool's work on a session, turning the toolkit's errors into results the model can act on. */
async function onSession(sessions: SessionSet, id: string | undefined, work: (session: AgentSession) => Promise<string>): Promise<CallToolResult> {
  const session = sessions.get(id);
  return text(await session.run(() => work(session)));
}

/** Wraps a tool so that what it throws becomes an error result instead of a protocol error. */
export async function runTool(tool: AgentTool, ctx: ToolContext, args: unknown): Promise<CallToolResult> {
  try {
    return await tool.run(ctx, args);
  } catch (thrown) {
    const error = agentError(thrown);
    if (error instanceof AgentError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    log.error({ tool: tool.name, err: (error as Error).message }, 'agent tool failed unexpectedly');
    return { isError: true, content: [{ type: 'text', text: `${tool.name} failed unexpectedly; try again, or take a new snapshot.` }] };
  }
}
