// The gateway's dashboard (docs/gateway.md, "Dashboard"): one page, no build step, no data in the
// page itself. Its script reads /v1/status and /v1/webhooks like any client (with the token the
// operator types in, kept for the tab only when the gateway has one), refreshes the providers
// every 2 s, and adds, tests and removes webhooks. A nonce'd CSP allows only its own script.
import { randomBytes } from 'node:crypto';

export function renderDashboard(input: { name: string; needsToken: boolean; connectUrl: string }): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const settings = JSON.stringify({ needsToken: input.needsToken, connectUrl: input.connectUrl }).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.name)} · gateway</title>
<style nonce="${nonce}">
  :root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
  body { margin: 0 auto; max-width: 980px; padding: 24px; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 28px 0 8px; }
  .muted { opacity: .65; } .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
  code, input { font: 13px ui-monospace, monospace; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #8883; }
  th { font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; opacity: .7; }
  .pill { border-radius: 999px; padding: 1px 8px; font-size: 12px; } .ok { background: #16a34a33; } .bad { background: #dc262633; }
  button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #8886; background: transparent; cursor: pointer; }
  input[type=text], input[type=password] { padding: 5px 8px; border-radius: 6px; border: 1px solid #8886; min-width: 320px; background: transparent; color: inherit; }
  .add { margin-top: 10px; } #error { color: #dc2626; } [hidden] { display: none !important; }
</style></head>
<body>
<h1>${escapeHtml(input.name)}</h1>
<div class="row muted">Connect address: <code id="connect"></code> <button id="copy" type="button">Copy</button> <span id="copied" hidden>Copied</span></div>
<div id="login" class="row" hidden><h2>Token</h2><input id="token" type="password" placeholder="GW_TOKEN" autocomplete="off"><button id="use" type="button">Use</button></div>
<p id="error" role="alert"></p>
<h2>Providers</h2>
<table><thead><tr><th>Provider</th><th>State</th><th>Active</th><th>Max</th><th>Cooldown until</th></tr></thead><tbody id="providers"><tr><td colspan="5" class="muted">Loading…</td></tr></tbody></table>
<h2>Webhooks</h2>
<table><thead><tr><th>URL</th><th>Events</th><th>From</th><th></th></tr></thead><tbody id="webhooks"><tr><td colspan="4" class="muted">Loading…</td></tr></tbody></table>
<div class="row add"><input id="hook-url" type="text" placeholder="https://example.com/hook?token=…" aria-label="Webhook URL"><button id="add" type="button">Add webhook</button><span id="test-result" class="muted" role="status"></span></div>
<script nonce="${nonce}">
const settings = ${settings};
const $ = (id) => document.getElementById(id);
$('connect').textContent = settings.connectUrl;
$('copy').onclick = async () => { await navigator.clipboard.writeText(settings.connectUrl).catch(() => {}); $('copied').hidden = false; setTimeout(() => ($('copied').hidden = true), 1500); };
let token = sessionStorage.getItem('gw-token') || '';
$('login').hidden = !settings.needsToken || !!token;
$('use').onclick = () => { token = $('token').value.trim(); sessionStorage.setItem('gw-token', token); $('login').hidden = true; refresh(); };
async function api(path, init = {}) {
  const headers = { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) };
  const res = await fetch(path, { ...init, headers });
  if (res.status === 401) { $('login').hidden = false; throw new Error('Enter the gateway token (GW_TOKEN).'); }
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(body && body.error ? body.error : 'HTTP ' + res.status);
  return body;
}
function cell(text, className) { const td = document.createElement('td'); td.textContent = text; if (className) td.className = className; return td; }
function empty(tbody, cols, text) { tbody.replaceChildren(); const tr = document.createElement('tr'); const td = cell(text, 'muted'); td.colSpan = cols; tr.append(td); tbody.append(tr); }
async function loadProviders() {
  const { providers } = await api('/v1/status');
  const tbody = $('providers');
  if (providers.length === 0) return empty(tbody, 5, 'No providers in gateway.yml.');
  tbody.replaceChildren(...providers.map((p) => {
    const tr = document.createElement('tr');
    const state = document.createElement('td'); const pill = document.createElement('span');
    pill.className = 'pill ' + (p.healthy ? 'ok' : 'bad'); pill.textContent = p.healthy ? 'healthy' : 'cooling down'; state.append(pill);
    tr.append(cell(p.id), state, cell(String(p.active)), cell(p.maxConcurrent === null ? '∞' : String(p.maxConcurrent)), cell(p.cooldownUntil ? new Date(p.cooldownUntil).toLocaleTimeString() : '—'));
    return tr;
  }));
}
async function loadWebhooks() {
  const { webhooks } = await api('/v1/webhooks');
  const tbody = $('webhooks');
  if (webhooks.length === 0) return empty(tbody, 4, 'No webhooks yet. Add one below or in gateway.yml.');
  tbody.replaceChildren(...webhooks.map((w) => {
    const tr = document.createElement('tr');
    const actions = document.createElement('td'); actions.className = 'row';
    const test = document.createElement('button'); test.type = 'button'; test.textContent = 'Test';
    test.onclick = async () => { $('test-result').textContent = 'Sending…'; try { const r = await api('/v1/webhooks/' + w.id + '/test', { method: 'POST' }); $('test-result').textContent = r.ok ? 'Test delivered (HTTP ' + r.status + ')' : 'Test failed: ' + r.error; } catch (e) { $('test-result').textContent = e.message; } };
    actions.append(test);
    if (w.source !== 'config') { const del = document.createElement('button'); del.type = 'button'; del.textContent = 'Delete'; del.onclick = async () => { if (confirm('Delete this webhook?')) { await api('/v1/webhooks/' + w.id, { method: 'DELETE' }).catch(show); loadWebhooks().catch(show); } }; actions.append(del); }
    tr.append(cell(w.url), cell(w.events ? w.events.join(', ') : 'all events'), cell(w.source === 'config' ? 'gateway.yml' : 'dashboard'), actions);
    return tr;
  }));
}
$('add').onclick = async () => { try { await api('/v1/webhooks', { method: 'POST', body: JSON.stringify({ url: $('hook-url').value.trim() }) }); $('hook-url').value = ''; await loadWebhooks(); show(null); } catch (e) { show(e); } };
function show(error) { $('error').textContent = error ? error.message : ''; }
async function refresh() { try { await Promise.all([loadProviders(), loadWebhooks()]); show(null); } catch (e) { show(e); } }
refresh();
setInterval(() => loadProviders().then(() => show(null), show), 2000);
</script>
</body></html>`;
  return { html, csp };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
