// The verbs of `gateway browse` (docs/gateway.md, "browse") as the agent tools they run, the same
// definitions MCP serves (proxy/agent/tools.ts): each verb's arguments and flags become a tool's
// input, checked against its schema, and the tool's answer the command's.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentSession } from '../agent/session';
import type { SessionSet } from '../agent/session-set';
import { runTool, type AgentTool } from '../agent/tools';
import type { BrowseFlags } from './browse-args.mjs';
import { forTheShell } from './browse-words';
import { UsageError } from './output';

/** A verb that failed as the tool said (exit code 1). */
export class VerbFailed extends Error {}

/** The tools, and the session a verb acts on. */
export interface VerbTarget {
  tools: ReadonlyMap<string, AgentTool>;
  sessions: SessionSet;
  session: AgentSession;
}

/** Runs one agent tool as MCP would (arguments checked against its schema); its text, or VerbFailed. */
async function tool(target: VerbTarget, name: string, input: Record<string, unknown>): Promise<{ text: string; image?: string }> {
  const found = target.tools.get(name) as AgentTool;
  const parsed = z.object(found.inputSchema).safeParse(input);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `${issue.path.join('.') || name}: ${issue.message}`).join('; '));
  const result: CallToolResult = await runTool(found, { sessions: target.sessions }, parsed.data);
  const text = forTheShell(result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'));
  if (result.isError) throw new VerbFailed(text);
  const image = result.content.find((part) => part.type === 'image');
  return { text, image: image?.type === 'image' ? image.data : undefined };
}

type Answer = { text: string; image?: string };
/** A verb: its tool's answer, and what else the command prints (`extra`, filled in). */
type Verb = (target: VerbTarget, args: string[], flags: BrowseFlags, extra: Record<string, unknown>) => Promise<Answer>;

const ref = (value: string) => value.replace(/^@/, '');
const act = (target: VerbTarget, step: Record<string, unknown>) => tool(target, 'browser_act', { steps: [step] });

const VERBS: Record<string, Verb> = {
  open: (target, args) => tool(target, 'browser_navigate', { url: args[0] }),
  snapshot: (target) => tool(target, 'browser_snapshot', {}),
  press: (target, args) => act(target, args.length === 2 ? { action: 'press', ref: ref(args[0]!), key: args[1] } : { action: 'press', key: args[0] }),
  select: (target, args) => act(target, { action: 'select', ref: ref(args[0]!), option: args[1] }),
  scroll: (target, args) => act(target, { action: 'scroll', direction: args[0] }),
  extract: (target, _args, flags) => tool(target, 'browser_extract', { format: flags.format }),
  screenshot: async (target, args, flags, extra) => {
    const answer = await tool(target, 'browser_screenshot', {
      ref: args[0] === undefined ? undefined : ref(args[0]),
      fullPage: flags.full,
      skipIfUnchanged: flags.changed,
    });
    if (!answer.image) extra.unchanged = true;
    return answer;
  },
  wait: (target, args, flags) => tool(target, 'browser_wait', { text: args[0], selector: flags.selector, urlContains: flags.url, timeoutMs: flags.timeout }),
  tabs: async (target, args, _flags, extra) => {
    const [action = 'list', which] = args;
    const input: Record<string, unknown> = { action };
    if (action === 'new') input.url = which;
    if (action === 'select' || action === 'close') input.tabId = await tabId(target, which!);
    const answer = await tool(target, 'browser_tabs', input);
    extra.tabs = await target.session.listTabs();
    return answer;
  },
  eval: async (target, args, _flags, extra) => {
    const answer = await tool(target, 'browser_eval', { expression: args[0] });
    try {
      extra.value = JSON.parse(answer.text);
    } catch {
      // undefined, NaN, Infinity, or cut short: the text says it
    }
    return answer;
  },
  observe: (target) => tool(target, 'browser_observe', {}),
};
for (const verb of ['click', 'hover', 'check', 'uncheck']) VERBS[verb] = (target, args) => act(target, { action: verb, ref: ref(args[0]!) });
for (const verb of ['fill', 'type']) VERBS[verb] = (target, args) => act(target, { action: verb, ref: ref(args[0]!), text: args[1] });

/** Runs one `gateway browse` verb through its tool; the answer the command prints. */
export async function runVerb(target: VerbTarget, verb: string, args: string[], flags: BrowseFlags): Promise<Record<string, unknown>> {
  if (!Object.hasOwn(VERBS, verb)) throw new UsageError(`unknown verb '${verb}'`);
  const extra: Record<string, unknown> = {};
  const answer = await VERBS[verb]!(target, args, flags, extra);
  const tab = await target.session.tab().catch(() => null);
  const page = { url: tab?.url ?? null };
  if (verb === 'screenshot') return { note: answer.text, image: answer.image, ...extra, ...page };
  return { text: answer.text, ...extra, ...page };
}

/** A tab id, or the one tab whose id starts with what was given. */
async function tabId(target: VerbTarget, given: string): Promise<string> {
  const tabs = await target.session.listTabs();
  if (tabs.some((t) => t.tabId === given)) return given;
  const matches = tabs.filter((t) => t.tabId.toLowerCase().startsWith(given.toLowerCase()));
  return matches.length === 1 ? matches[0]!.tabId : given;
}
