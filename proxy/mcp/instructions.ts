// What the MCP handshake tells a model about this server (`instructions` of the initialize result).
// Models read it once, before any tool description, so it teaches the workflow and the two mistakes
// that cost the most: acting on a stale element ref, and leaving browsers open (they are billed).

export const MCP_SERVER_NAME = 'browser-router';

export const MCP_INSTRUCTIONS = `Real web browsers, routed through the user's browser router. Each browser is a billed session that the user can see in their dashboard.

How to work:
1. Open a browser (browser_session with action "open"). Keep the sessionId it returns; pass it to every other tool when more than one browser is open.
2. Go to a page (browser_navigate). It returns a snapshot of the page.
3. Read the snapshot: one line per element you can act on, each with a ref such as e1, e2, e3, its role and its accessible name (for example: e4 button "Sign in"). By default it lists only what is in view and can be clicked or typed into; ask browser_snapshot for scope "full" or interactiveOnly false when you need more.
4. Act with those refs (browser_act: click, fill, type, press, select, check, hover, scroll). An action returns only what changed on the page since the previous snapshot, not the whole page again.
5. Refs belong to the page they were read from. After a navigation or a large change they are stale: a tool then says so, and you take a fresh snapshot (browser_snapshot) and use the new refs. Never guess or reuse a ref from an older snapshot.
6. To read content, prefer browser_extract (markdown, text or links) to screenshots; use browser_screenshot when layout or images matter.
7. Close the browser when you are done (browser_session with action "close"). A browser left open is closed after its idle time (idleMinutes, default 5), but it is billed until then.

Errors are written for you: they say what went wrong and what to try next. If the same step fails three times, try a different approach instead of repeating it.`;

/**
 * The self-hosted gateway's (its /mcp and `gateway mcp`): the same workflow; what differs is where
 * the browsers are, and that nothing is billed.
 */
export const SELF_HOSTED_MCP_INSTRUCTIONS = MCP_INSTRUCTIONS.replace(
  /^.*\n/,
  "Real web browsers on the user's own machine or their self-hosted browser gateway. Nothing is billed, but each browser holds memory and a provider slot until it is closed.\n",
).replace('but it is billed until then.', 'but it holds its browser until then.');
