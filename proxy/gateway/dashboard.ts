// The gateway's dashboard (docs/gateway.md, "Dashboard"): one page in the hosted product's look
// (dashboard-style.ts), no build step, no data in the page itself. Its script (dashboard-script.ts)
// reads /v1/status and /v1/webhooks like any client, with the token the operator types in, kept
// for the tab only when the gateway has one. A nonce'd CSP allows only its own style and script.
import { randomBytes } from 'node:crypto';
import { DASHBOARD_SCRIPT } from './dashboard-script';
import { DASHBOARD_CSS } from './dashboard-style';

export function renderDashboard(input: { name: string; needsToken: boolean; connectUrl: string }): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const settings = JSON.stringify({ needsToken: input.needsToken, connectUrl: input.connectUrl }).replace(/</g, '\\u003c');
  const name = escapeHtml(input.name);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · gateway</title>
<style nonce="${nonce}">${DASHBOARD_CSS}</style></head>
<body>
${TOPBAR}
<main>
<div class="page-head"><p class="eyebrow">Self-hosted gateway</p><h1>${name}</h1><p class="lead">Provider health, the sessions running now and the webhooks of this gateway. Refreshed every 2 seconds.</p></div>
<div id="error" class="alert" role="alert" hidden></div>
${CONNECT_CARD}
${STATS}
${card('providers-title', 'Providers', 'Each provider is dialled the way <code>gateway check</code> does it, at start-up and every 30 seconds; cooldown follows failed connects.', table('Providers', 'providers', ['Provider', 'State', 'Sessions', 'Last check', 'Cooldown until']))}
${card('sessions-title', 'Live sessions', 'Browser sessions connected through this gateway now.', table('Live sessions', 'sessions', ['Session', 'Provider', 'Started', 'Duration']))}
${card('webhooks-title', 'Webhooks', 'Operational events (provider.cooldown, queue.timeout, shutdown.start) are sent to these addresses.', table('Webhooks', 'webhooks', ['URL', 'Events', 'From', '<span class="sr-only">Actions</span>']) + WEBHOOK_FORM)}
</main>
<script nonce="${nonce}">
const settings = ${settings};
${DASHBOARD_SCRIPT}
</script>
</body></html>`;
  return { html, csp };
}

// The product's LogoMark (components/ui/icons.tsx).
const TOPBAR = `<header class="topbar">
<div class="brand"><svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8"/><path d="M8 11h5.5a3 3 0 0 1 3 3v4a3 3 0 0 0 3 3H24M8 21h5.5M19.5 11H24" stroke="white" stroke-width="2.25" stroke-linecap="round" fill="none"/><circle cx="16.5" cy="16" r="2" fill="white"/></svg>Browser Router <span class="pill neutral plain">gateway</span></div>
<span id="updated" class="updated"><span class="dot" aria-hidden="true"></span><span id="updated-text">Loading…</span></span>
</header>`;

const CONNECT_CARD = `<section class="card" aria-labelledby="connect-title">
<div class="card-head"><div><h2 id="connect-title">Connect</h2><p>Point Playwright, Puppeteer or any CDP client at this address.</p></div></div>
<div class="card-body">
<div class="copy-row"><code id="connect"></code><button id="copy" class="btn secondary sm" type="button">Copy</button></div>
<form id="login" class="field" hidden><label for="token">Gateway token</label>
<div class="field-row"><input id="token" type="password" placeholder="GW_TOKEN" autocomplete="off"><button class="btn primary" type="submit">Use token</button></div>
<p class="hint">Kept in this tab only.</p></form>
</div></section>`;

const STATS = `<dl class="stats">
<div class="stat"><dt>Providers reachable</dt><dd id="stat-providers">—</dd></div>
<div class="stat"><dt>Live sessions</dt><dd id="stat-sessions">—</dd></div>
<div class="stat"><dt>Waiting in queue</dt><dd id="stat-queued">—</dd></div>
</dl>`;

const WEBHOOK_FORM = `<form id="add-webhook" class="card-foot">
<input id="hook-url" type="text" placeholder="https://example.com/hook?token=…" aria-label="Webhook URL" autocomplete="off">
<button class="btn primary" type="submit">Add webhook</button>
<span id="test-result" class="note" role="status"></span>
</form>`;

function card(titleId: string, title: string, description: string, body: string): string {
  return `<section class="card" aria-labelledby="${titleId}">
<div class="card-head"><div><h2 id="${titleId}">${title}</h2><p>${description}</p></div></div>
${body}
</section>`;
}

/** Headers are trusted markup (constants above); the rows are filled in by the script. */
function table(label: string, bodyId: string, headers: string[]): string {
  return `<div class="table-wrap"><table aria-label="${label}"><thead><tr>${headers.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
<tbody id="${bodyId}"><tr><td colspan="${headers.length}" class="empty"><span>Loading…</span></td></tr></tbody></table></div>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
