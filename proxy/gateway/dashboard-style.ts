// The dashboard page's stylesheet: the hosted product's look (app/globals.css and components/ui/)
// without its build. The same tokens (zinc greys, the indigo accent, the system font stack) and
// the same pieces: white cards with a zinc border on a zinc-50 page, Card headers, the DataTable,
// Badge pills, Buttons and Inputs. Below 640 px a table's rows become stacked blocks, each value
// under its column's name, so nothing scrolls sideways on a phone.
export const DASHBOARD_CSS = `
:root {
  color-scheme: light;
  --zinc-50: oklch(98.5% 0 0); --zinc-100: oklch(96.7% 0.001 286.375); --zinc-200: oklch(92% 0.004 286.32);
  --zinc-300: oklch(87.1% 0.006 286.286); --zinc-400: oklch(70.5% 0.015 286.067); --zinc-500: oklch(55.2% 0.016 285.938);
  --zinc-600: oklch(44.2% 0.017 285.786); --zinc-700: oklch(37% 0.013 285.805); --zinc-900: oklch(21% 0.006 285.885);
  --accent-50: oklch(96.2% 0.018 272.314); --accent-200: oklch(87% 0.065 274.039); --accent-500: oklch(58.5% 0.233 277.117);
  --accent-600: oklch(51.1% 0.262 276.966); --accent-700: oklch(45.7% 0.24 277.023);
  --emerald-50: oklch(97.9% 0.021 166.113); --emerald-200: oklch(90.5% 0.093 164.15); --emerald-700: oklch(50.8% 0.118 165.612);
  --amber-50: oklch(98.7% 0.022 95.277); --amber-200: oklch(92.4% 0.12 95.746); --amber-800: oklch(47.3% 0.137 46.201);
  --red-50: oklch(97.1% 0.013 17.38); --red-200: oklch(88.5% 0.062 18.334); --red-600: oklch(57.7% 0.245 27.325);
  --red-700: oklch(50.5% 0.213 27.518); --red-800: oklch(44.4% 0.177 26.899);
  --shadow-xs: 0 1px 2px 0 rgb(0 0 0 / 0.05);
  --mono: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, "Liberation Mono", "Courier New", monospace;
  font: 14px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  -webkit-font-smoothing: antialiased;
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--zinc-50); color: var(--zinc-900); }
[hidden] { display: none !important; }
:focus-visible { outline: 2px solid var(--accent-500); outline-offset: 2px; }
code { font-family: var(--mono); font-size: 0.92em; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }

.topbar { position: sticky; top: 0; z-index: 10; display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--zinc-200); }
.brand { display: flex; align-items: center; gap: 8px; white-space: nowrap; font-size: 15px; font-weight: 600; letter-spacing: -0.01em; }
.brand svg { width: 24px; height: 24px; } .brand rect { fill: var(--accent-600); }
.updated { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; font-size: 13px; color: var(--zinc-500); }
.updated .dot { width: 6px; height: 6px; border-radius: 999px; background: var(--emerald-700); }
.updated.stale .dot { background: var(--red-600); }

main { max-width: 1080px; margin: 0 auto; padding: 32px 20px 48px; display: grid; gap: 20px; }
.page-head { display: grid; gap: 4px; margin-bottom: 4px; }
.eyebrow { margin: 0; font-size: 13px; font-weight: 500; color: var(--zinc-500); }
h1 { margin: 0; font-size: 24px; line-height: 1.25; font-weight: 600; letter-spacing: -0.02em; overflow-wrap: anywhere; }
.lead { margin: 0; max-width: 42rem; color: var(--zinc-500); }

.alert { display: flex; gap: 10px; padding: 12px 14px; border: 1px solid var(--red-200); border-radius: 8px; background: var(--red-50); color: var(--red-800); }

.stats { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 12px; }
.stat { padding: 14px 16px; background: #fff; border: 1px solid var(--zinc-200); border-radius: 12px; box-shadow: var(--shadow-xs); }
.stat dt { font-size: 13px; color: var(--zinc-500); } .stat dd { margin: 4px 0 0; font-size: 22px; font-weight: 600; letter-spacing: -0.02em; font-variant-numeric: tabular-nums; }
.stat dd.bad { color: var(--red-700); }

.card { overflow: hidden; background: #fff; border: 1px solid var(--zinc-200); border-radius: 12px; box-shadow: var(--shadow-xs); }
.card-head { display: flex; flex-wrap: wrap; align-items: flex-start; justify-content: space-between; gap: 12px 24px; padding: 16px 20px; border-bottom: 1px solid var(--zinc-100); }
.card-head h2 { margin: 0; font-size: 15px; font-weight: 600; }
.card-head p { margin: 2px 0 0; font-size: 13px; color: var(--zinc-500); }
.card-body { padding: 16px 20px; display: grid; gap: 12px; }
.card-foot { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 12px 20px; border-top: 1px solid var(--zinc-100); background: oklch(98.5% 0 0 / 0.6); }

.copy-row { display: flex; align-items: center; gap: 8px; min-width: 0; }
.copy-row code { flex: 1; min-width: 0; padding: 7px 10px; border: 1px solid var(--zinc-200); border-radius: 8px; background: var(--zinc-50); color: var(--zinc-700); overflow-x: auto; white-space: nowrap; }
.field { display: grid; gap: 6px; } .field label { font-size: 13px; font-weight: 500; color: var(--zinc-700); }
.field-row { display: flex; flex-wrap: wrap; gap: 8px; } .field-row input { flex: 1 1 220px; }
.hint, .note { margin: 0; font-size: 13px; color: var(--zinc-500); }

input { height: 36px; padding: 0 12px; font: inherit; color: var(--zinc-900); background: #fff; border: 1px solid var(--zinc-300); border-radius: 8px; box-shadow: var(--shadow-xs); min-width: 0; }
input::placeholder { color: var(--zinc-400); }
input:focus { outline: none; border-color: var(--accent-500); box-shadow: 0 0 0 3px oklch(58.5% 0.233 277.117 / 0.15); }
.card-foot input { flex: 1 1 260px; font-family: var(--mono); font-size: 13px; }

.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; height: 36px; padding: 0 14px; font: inherit; font-weight: 500; white-space: nowrap; border-radius: 8px; border: 1px solid transparent; cursor: pointer; transition: background-color .15s, color .15s; }
.btn.sm { height: 32px; padding: 0 10px; font-size: 13px; border-radius: 6px; }
.btn.primary { background: var(--accent-600); color: #fff; box-shadow: var(--shadow-xs); } .btn.primary:hover { background: var(--accent-700); }
.btn.secondary { background: #fff; color: var(--zinc-900); border-color: var(--zinc-300); box-shadow: var(--shadow-xs); } .btn.secondary:hover { background: var(--zinc-50); }
.btn.ghost { background: transparent; color: var(--zinc-600); } .btn.ghost:hover { background: var(--zinc-100); color: var(--zinc-900); }
.btn.danger-ghost { background: transparent; color: var(--red-600); } .btn.danger-ghost:hover { background: var(--red-50); color: var(--red-700); }
.btn:disabled { opacity: .6; cursor: not-allowed; }

.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; text-align: left; }
thead tr { border-bottom: 1px solid var(--zinc-200); background: oklch(98.5% 0 0 / 0.8); }
th { padding: 10px 20px; font-size: 12px; font-weight: 500; color: var(--zinc-500); white-space: nowrap; }
td { padding: 12px 20px; color: var(--zinc-700); vertical-align: middle; }
tbody tr + tr { border-top: 1px solid var(--zinc-100); }
tbody tr:hover { background: oklch(98.5% 0 0 / 0.7); }
td.name { font-weight: 500; color: var(--zinc-900); }
td.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
td.url { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
td.actions { text-align: right; white-space: nowrap; }
.sub { display: block; font-size: 12px; color: var(--zinc-500); }
.why { display: block; font-size: 13px; color: var(--red-700); overflow-wrap: anywhere; }
.pills { display: flex; flex-wrap: wrap; gap: 4px; }
.empty { padding: 40px 24px; text-align: center; }
.empty strong { display: block; font-weight: 500; color: var(--zinc-900); } .empty span { display: block; margin-top: 4px; font-size: 13px; color: var(--zinc-500); }

.pill { display: inline-flex; align-items: center; gap: 6px; padding: 2px 8px; border-radius: 999px; font-size: 12px; font-weight: 500; white-space: nowrap; box-shadow: inset 0 0 0 1px var(--ring); }
.pill::before { content: ""; width: 6px; height: 6px; border-radius: 999px; background: currentColor; }
.pill.success { background: var(--emerald-50); color: var(--emerald-700); --ring: var(--emerald-200); }
.pill.warning { background: var(--amber-50); color: var(--amber-800); --ring: var(--amber-200); }
.pill.danger { background: var(--red-50); color: var(--red-700); --ring: var(--red-200); }
.pill.neutral { background: var(--zinc-100); color: var(--zinc-700); --ring: var(--zinc-200); }
.pill.plain::before { display: none; }
.pill.accent { background: var(--accent-50); color: var(--accent-700); --ring: var(--accent-200); }

@media (max-width: 640px) {
  .topbar { padding: 10px 16px; } .brand .pill { display: none; }
  main { padding: 20px 12px 32px; gap: 16px; }
  h1 { font-size: 20px; }
  .stats { gap: 8px; } .stat { padding: 10px 12px; } .stat dd { font-size: 18px; }
  .card-head, .card-body, .card-foot { padding-left: 16px; padding-right: 16px; }
  .card-foot .btn { flex: 1 1 auto; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0); }
  table, tbody, tr, td { display: block; }
  tbody tr { padding: 10px 16px; }
  td { display: flex; gap: 12px; justify-content: space-between; align-items: baseline; padding: 4px 0; text-align: right; }
  td > * { min-width: 0; }
  td[data-label]::before { content: attr(data-label); content: attr(data-label) / ""; flex: none; font-size: 12px; font-weight: 500; color: var(--zinc-500); text-align: left; }
  td.actions { justify-content: flex-end; }
  td.url { text-align: left; display: block; } td.url::before { display: block; margin-bottom: 2px; }
  .pills { justify-content: flex-end; }
}
@media (prefers-reduced-motion: reduce) { * { transition-duration: 0.01ms !important; } }
`;
