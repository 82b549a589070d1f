// The test site's sign-up form (/agent/form) completed through the agent tools, as a model would:
// navigate, snapshot, one browser_act of fills, a select, a check and the submit, then read the
// result back. Shared by the MCP tests over HTTP (e2e/api/mcp-agents.test.ts) and over stdio
// (proxy/cli/testing.ts).
import assert from 'node:assert/strict';

/** Anything that calls an agent tool and gives back its text. */
export interface ToolCaller {
  tool(name: string, args?: Record<string, unknown>): Promise<{ text: string; error: boolean }>;
}

/** The ref (e12) of the first snapshot line matching `pattern`. */
export const refOf = (text: string, pattern: RegExp) => {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matching ${pattern} in:\n${text}`);
  return /e\d+/.exec(line!)![0];
};

/** Fills and sends the form, and reads the result back in `format`. */
export async function completeForm(a: ToolCaller, siteUrl: string, format: 'text' | 'markdown' = 'text'): Promise<void> {
  const page = await a.tool('browser_navigate', { url: `${siteUrl}/agent/form` });
  assert.equal(page.error, false, page.text);
  assert.match(page.text, /Page: "Sign up"/);
  const snap = await a.tool('browser_snapshot');
  const sent = await a.tool('browser_act', {
    steps: [
      { action: 'fill', ref: refOf(snap.text, /textbox "Full name"/), text: 'Ada Lovelace' },
      { action: 'fill', ref: refOf(snap.text, /textbox "Email"/), text: 'ada@example.com' },
      { action: 'select', ref: refOf(snap.text, /combobox "Plan"/), option: 'pro' },
      { action: 'check', ref: refOf(snap.text, /checkbox "Send me news"/) },
      { action: 'click', ref: refOf(snap.text, /button "Create account"/) },
    ],
  });
  assert.equal(sent.error, false, sent.text);
  assert.match(sent.text, /Page: "Welcome"/);
  const read = await a.tool('browser_extract', { format });
  assert.match(read.text, /Thanks, Ada Lovelace/);
  assert.match(read.text, /email=ada@example\.com plan=pro news=on/);
}
