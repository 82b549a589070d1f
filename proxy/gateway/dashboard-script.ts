// The dashboard page's script, plain browser JavaScript (no build). It reads GET /v1/status every
// 2 s (providers with their probe, live sessions, the queue) and /v1/webhooks on load and after a
// change, with the token the operator typed in when the gateway has one (kept for the tab only).
// Everything from the gateway is put on the page as text, never as markup: a provider's failure
// reason is the provider's words. `settings` is defined by the page before this runs.
export const DASHBOARD_SCRIPT = `
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem('gw-token') || '';

function el(tag, className, children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of [].concat(children === undefined ? [] : children)) node.append(child);
  return node;
}
function td(label, className, children) { const cell = el('td', className, children); cell.dataset.label = label; return cell; }
function pill(text, tone) { return el('span', 'pill ' + tone, text); }
function clock(iso) { return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }); }
function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return s + ' s';
  const m = Math.floor(s / 60);
  if (m < 60) return m + ' min ' + String(s % 60).padStart(2, '0') + ' s';
  return Math.floor(m / 60) + ' h ' + String(m % 60).padStart(2, '0') + ' min';
}
function emptyRow(tbody, cols, title, detail) {
  const cell = el('td', 'empty', [el('strong', '', title), el('span', '', detail)]);
  cell.colSpan = cols;
  tbody.replaceChildren(el('tr', '', cell));
}
function showError(error) {
  $('error').hidden = !error;
  $('error').textContent = error ? error.message : '';
  $('updated').classList.toggle('stale', !!error);
  if (error) $('updated-text').textContent = 'Not updating';
}

async function api(path, init) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch(path, Object.assign({}, init, { headers }));
  if (res.status === 401) { $('login').hidden = false; throw new Error('Enter the gateway token (GW_TOKEN) to see this gateway.'); }
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(body && body.error ? body.error : 'HTTP ' + res.status);
  return body;
}

/** The pills of a provider: unreachable and cooling down can both hold; otherwise one state. */
function providerPills(p) {
  const pills = [];
  if (p.reachable === false) pills.push(pill('Unreachable', 'danger'));
  if (p.cooldownUntil) pills.push(pill('Cooling down', 'warning'));
  if (pills.length === 0 && !p.healthy) pills.push(pill('Unhealthy', 'danger'));
  if (pills.length === 0) pills.push(p.reachable === true ? pill('Healthy', 'success') : pill(p.reason ? 'Not probed' : 'Checking…', 'neutral'));
  return el('div', 'pills', pills);
}
function lastCheck(p) {
  const parts = [];
  if (p.reachable === true) parts.push(el('span', '', p.latencyMs + ' ms'));
  if (p.reason) parts.push(el('span', p.reachable === false ? 'why' : 'sub', p.reason));
  if (p.checkedAt) parts.push(el('span', 'sub', 'checked ' + clock(p.checkedAt)));
  return parts.length ? el('div', '', parts) : '—';
}
function renderProviders(providers) {
  const tbody = $('providers');
  if (providers.length === 0) return emptyRow(tbody, 5, 'No providers', 'Add one under providers: in gateway.yml and restart.');
  tbody.replaceChildren(...providers.map((p) => {
    const row = el('tr', '', [
      td('Provider', 'name', p.id),
      td('State', '', providerPills(p)),
      td('Sessions', 'num', p.active + ' / ' + (p.maxConcurrent < 0 ? '∞' : p.maxConcurrent)),
      td('Last check', '', lastCheck(p)),
      td('Cooldown until', 'num', p.cooldownUntil ? clock(p.cooldownUntil) : '—'),
    ]);
    row.dataset.provider = p.id;
    return row;
  }));
}
function renderSessions(sessions) {
  const tbody = $('sessions');
  if (sessions.length === 0) return emptyRow(tbody, 4, 'No sessions running', 'Sessions appear here while a client is connected.');
  tbody.replaceChildren(...sessions.map((s) => {
    const id = el('code', '', s.id.slice(0, 12) + '…');
    id.title = s.id;
    const running = td('Duration', 'num', duration(Date.now() - Date.parse(s.startedAt)));
    running.dataset.started = s.startedAt;
    return el('tr', '', [td('Session', '', id), td('Provider', 'name', s.provider), td('Started', 'num', clock(s.startedAt)), running]);
  }));
}
function renderStats(status) {
  const reachable = status.providers.filter((p) => p.reachable !== false).length;
  $('stat-providers').textContent = reachable + ' of ' + status.providers.length;
  $('stat-providers').classList.toggle('bad', reachable < status.providers.length);
  $('stat-sessions').textContent = String(status.sessions.length);
  $('stat-queued').textContent = String(status.queued);
}
async function loadStatus() {
  const status = await api('/v1/status');
  renderStats(status);
  renderProviders(status.providers);
  renderSessions(status.sessions || []);
  $('updated-text').textContent = 'Updated ' + clock(new Date().toISOString());
}

function webhookRow(w) {
  const test = el('button', 'btn ghost sm', 'Test');
  test.type = 'button';
  test.onclick = async () => {
    $('test-result').textContent = 'Sending…';
    try {
      const r = await api('/v1/webhooks/' + w.id + '/test', { method: 'POST' });
      $('test-result').textContent = r.ok ? 'Test delivered (HTTP ' + r.status + ')' : 'Test failed: ' + r.error;
    } catch (e) { $('test-result').textContent = e.message; }
  };
  const actions = td('', 'actions', test);
  if (w.source !== 'config') {
    const del = el('button', 'btn danger-ghost sm', 'Delete');
    del.type = 'button';
    del.onclick = async () => {
      if (!confirm('Delete this webhook?')) return;
      try { await api('/v1/webhooks/' + w.id, { method: 'DELETE' }); await loadWebhooks(); showError(null); } catch (e) { showError(e); }
    };
    actions.append(del);
  }
  const events = w.events ? w.events.join(', ') : 'all events';
  return el('tr', '', [td('URL', 'url', w.url), td('Events', '', events), td('From', '', pill(w.source === 'config' ? 'gateway.yml' : 'dashboard', w.source === 'config' ? 'neutral plain' : 'accent plain')), actions]);
}
async function loadWebhooks() {
  const { webhooks } = await api('/v1/webhooks');
  if (webhooks.length === 0) return emptyRow($('webhooks'), 4, 'No webhooks yet', 'Add one below or in gateway.yml.');
  $('webhooks').replaceChildren(...webhooks.map(webhookRow));
}

$('connect').textContent = settings.connectUrl;
$('copy').onclick = async () => {
  await navigator.clipboard.writeText(settings.connectUrl).catch(() => {});
  $('copy').textContent = 'Copied';
  setTimeout(() => ($('copy').textContent = 'Copy'), 1500);
};
$('login').hidden = !settings.needsToken || !!token;
$('login').onsubmit = (event) => {
  event.preventDefault();
  token = $('token').value.trim();
  sessionStorage.setItem('gw-token', token);
  $('login').hidden = true;
  refresh();
};
$('add-webhook').onsubmit = async (event) => {
  event.preventDefault();
  try {
    await api('/v1/webhooks', { method: 'POST', body: JSON.stringify({ url: $('hook-url').value.trim() }) });
    $('hook-url').value = '';
    await loadWebhooks();
    showError(null);
  } catch (e) { showError(e); }
};
async function refresh() { try { await Promise.all([loadStatus(), loadWebhooks()]); showError(null); } catch (e) { showError(e); } }
refresh();
setInterval(() => loadStatus().then(() => showError(null), showError), 2000);
// Durations tick between two reads of the status.
setInterval(() => {
  for (const cell of document.querySelectorAll('td[data-started]')) cell.textContent = duration(Date.now() - Date.parse(cell.dataset.started));
}, 1000);
`;
