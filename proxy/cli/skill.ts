// `gateway skills`: the agent skill file that teaches coding agents (Claude Code, Codex) to drive a
// browser with `gateway browse`. The rules a model most needs (refs go stale, close what you
// open) are the same as over MCP, so the MCP handshake's instructions are appended as they are.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MCP_INSTRUCTIONS } from '../mcp/instructions';
import { out } from './output';

export const SKILL_NAME = 'browser-gateway';

/** Agent tools whose skill folder we write into, when their home folder exists. */
const AGENT_HOMES = ['.claude', '.codex'];

/** The skill file: the workflow and verbs of `gateway browse`, then the MCP rules as they are. */
const SKILL_TEXT = `---
name: ${SKILL_NAME}
description: Drive a real web browser from the shell with \`gateway browse\` (open pages, read them as element lists, click, type, extract text, take screenshots). Use it when a task needs a live web page - logging in, filling a form, reading a page that needs JavaScript - rather than a plain HTTP fetch.
---

# Browsing with \`gateway browse\`

Each \`gateway browse <verb>\` command acts on one persistent browser and prints what happened.
The browser stays open between commands, so run them one after another like steps.

## Workflow

1. \`gateway browse open <url>\` goes to the page and prints the elements you can click or type into,
   one per line, each with a ref: \`e4 button "Sign in"\`, \`e5 textbox "Email"\`.
2. Act on an element with its ref, written \`@eN\`: \`gateway browse click @e4\`,
   \`gateway browse fill @e5 "me@example.com"\`.
3. Refs belong to the snapshot they came from. After a navigation or a large change on the page
   they are stale: run \`gateway browse snapshot\` and use the new refs. Never guess a ref or reuse
   one from an older snapshot.
4. To read the page, prefer \`gateway browse extract\` (markdown) to a screenshot; take a
   screenshot when layout or images matter.
5. Run \`gateway browse close\` when you are done. An idle browser is closed after 5 minutes
   (\`--idle-minutes\`), but it holds a browser until then.

## Verbs

| Command | What it does |
|---|---|
| \`open <url>\` | go to a page; print its clickable and typeable elements |
| \`snapshot\` | list the elements again, labelled e1, e2, ... |
| \`click @eN\` | click an element |
| \`fill @eN <text>\` | replace the text of a field |
| \`type @eN <text>\` | type into a field without clearing it |
| \`press [@eN] <key>\` | press a key (Enter, Tab, Escape, ...), on an element or the page |
| \`check @eN\` / \`uncheck @eN\` | tick or untick a checkbox |
| \`select @eN <option>\` | choose an option of a select |
| \`hover @eN\` | move the mouse over an element |
| \`scroll up\` / \`scroll down\` | scroll the page |
| \`extract\` | the page's content; \`--format markdown\` (default), \`text\` or \`links\` |
| \`screenshot [@eN]\` | a JPEG of the view or one element; \`--full\` for the whole page, \`--changed\` only if it changed |
| \`wait <text>\` | wait for text to appear; \`--selector <css>\`, \`--url <url>\`, \`--timeout <ms>\` |
| \`tabs [list\\|new\\|select\\|close]\` | list, open, switch to or close tabs |
| \`eval <expression>\` | run JavaScript in the page and print the result |
| \`observe\` | console output, failed requests, downloads and dialogs since the last look |
| \`close\` | close the browser |
| \`sessions\` | list the open browsers |

## Flags

| Flag | Meaning |
|---|---|
| \`--session <name>\` | which browser (default \`default\`); separate names run separate browsers |
| \`--endpoint <url>\` | the gateway to use; else \`GW_ENDPOINT\`, else the saved \`gateway login\` |
| \`--token <token>\` | its token; else \`GW_TOKEN\`, else the saved login |
| \`--json\` | print the raw JSON result |
| \`--idle-minutes <n>\` | close the browser after this long without a command (default 5) |

If a command says it is not logged in, ask the user to run \`gateway login --endpoint <url> --token <token>\`
(\`gateway whoami\` shows what is configured).

## The same browsers over MCP

When the browser-router MCP server is connected instead of the shell, its tools follow these rules:

${MCP_INSTRUCTIONS}
`;

export function renderSkill(): string {
  return SKILL_TEXT;
}

/** Writes `<dir>/SKILL.md`, or the same file in each installed agent tool's skill folder, or prints it. */
export function skills(options: { dir?: string }): void {
  const text = renderSkill();
  const home = os.homedir();
  const dirs = options.dir
    ? [path.resolve(options.dir)]
    : AGENT_HOMES.filter((name) => existsSync(path.join(home, name))).map((name) => path.join(home, name, 'skills', SKILL_NAME));
  if (dirs.length === 0) {
    process.stdout.write(text);
    return;
  }
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'SKILL.md');
    writeFileSync(file, text);
    out(`Wrote ${file}`);
  }
}
