import { esc } from '../report/report-page.js';
import { REPORT_CSP } from '../routes/report.js';

// The console's page shell: landmarks (banner, navigation, main), one h1 per page, a
// skip link, light and dark schemes, a phone-width layout, and one small script (nonce'd)
// that shows times in the viewer's time zone and refreshes the live parts of a page.
// Every tenant-provided string goes through esc() (the report page's) before it lands here.

export { esc };

/** The report page's policy, opened just enough for the console: its own nonce'd script and style, same-origin fetches, forms and frames (the live view). */
export function consoleCsp(nonce: string): string {
  return REPORT_CSP
    .replace("style-src 'unsafe-inline'", `style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; frame-src 'self'`)
    .replace("form-action 'none'", "form-action 'self'");
}

export interface Shell {
  title: string;
  /** Which nav entry is current. */
  section?: 'suites' | 'runs' | 'sessions' | 'pressure' | 'sign-in';
  nonce: string;
  /** Signed-in tenant (null: not signed in; 'open': open mode). */
  tenant: string | null;
  openMode: boolean;
  csrf: string;
  body: string;
}

const NAV: [Shell['section'], string, string][] = [
  ['suites', '/console/suites', 'Suites'],
  ['runs', '/console/runs', 'Runs'],
  ['sessions', '/console/sessions', 'Sessions'],
  ['pressure', '/console/pressure', 'Pressure'],
];

export function page(s: Shell): string {
  const nav = s.tenant
    ? `<nav aria-label="Console"><ul>${NAV.map(([k, href, label]) => `<li><a href="${href}"${k === s.section ? ' aria-current="page"' : ''}>${label}</a></li>`).join('')}</ul></nav>`
    : '';
  const who = s.tenant
    ? s.openMode
      ? '<span class="who">Open mode</span>'
      : `<form class="who" method="post" action="/console/sign-out">${csrfField(s.csrf)}<span>Tenant <strong>${esc(s.tenant)}</strong></span> <button type="submit">Sign out</button></form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${esc(s.title)} — Ariadne console</title>
<style nonce="${s.nonce}">${CSS}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/console/suites">Ariadne</a>${nav}${who}</header>
<main id="main" tabindex="-1">
${s.body}
</main>
<script nonce="${s.nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(token)}">`;
}

/** A time shown in UTC by the server and in the viewer's zone by the script. */
export function when(iso: string | undefined | null, empty = '—'): string {
  if (!iso) return `<span class="dim">${empty}</span>`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return esc(iso);
  return `<time datetime="${esc(d.toISOString())}">${esc(d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time>`;
}

export function ago(iso: string | undefined, now = Date.now()): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d`;
}

const STATUSES = /^(passed|failed|error|cancelled|flaky|running|queued|active|never)$/;
export function badge(status: string): string {
  return `<span class="badge ${STATUSES.test(status) ? status : 'other'}">${esc(status)}</span>`;
}

export function pct(n: number | null): string {
  return n === null ? '<span class="dim">—</span>' : `${Math.round(n * 100)}%`;
}

/** Previous/next links over a list; `query` keeps the filters. */
export function pager(base: string, query: URLSearchParams, pageNo: number, hasNext: boolean, what: string): string {
  if (pageNo <= 1 && !hasNext) return '';
  const href = (n: number) => {
    const q = new URLSearchParams(query);
    if (n > 1) q.set('page', String(n));
    else q.delete('page');
    const s = q.toString();
    return esc(s ? `${base}?${s}` : base);
  };
  return `<nav class="pager" aria-label="Pages of ${esc(what)}">${pageNo > 1 ? `<a href="${href(pageNo - 1)}" rel="prev">Previous page</a>` : ''} <span>Page ${pageNo}</span> ${hasNext ? `<a href="${href(pageNo + 1)}" rel="next">Next page</a>` : ''}</nav>`;
}

/** A part of the page the script refreshes every `seconds` while it carries data-live. */
export function liveRegion(id: string, html: string, live: boolean, seconds = 2): string {
  return `<div id="${esc(id)}"${live ? ` data-live="${seconds}"` : ''} aria-live="polite">${html}</div>`;
}

export function errorBody(status: number, code: string, message: string): string {
  return `<h1>${esc(status === 404 ? 'Not found' : status === 403 ? 'Refused' : status < 500 ? 'Bad request' : 'Something went wrong')}</h1>
<p class="err" data-code="${esc(code)}"><code>${esc(code)}</code> ${esc(message)}</p>
<p><a href="/console/suites">Back to the suites</a></p>`;
}

// Times in the viewer's zone; live regions refreshed by fetching the page again and
// swapping the region (its HTML was escaped by the server); a region that stops being
// live (its run finished) stops the polling. No third-party code, no eval.
const SCRIPT = `
(() => {
  const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  function localTimes(root) {
    for (const t of root.querySelectorAll('time[datetime]')) {
      const d = new Date(t.getAttribute('datetime'));
      if (!isNaN(d)) { t.textContent = fmt.format(d); t.title = d.toISOString(); }
    }
  }
  localTimes(document);
  async function refresh(el) {
    try {
      const res = await fetch(location.href, { headers: { 'x-console-region': el.id }, credentials: 'same-origin', cache: 'no-store' });
      if (!res.ok) return schedule(el, 10);
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      const next = doc.getElementById(el.id);
      if (!next) return;
      const focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
      el.innerHTML = next.innerHTML;
      localTimes(el);
      if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
      if (next.dataset.live) { el.dataset.live = next.dataset.live; schedule(el); }
      else { delete el.dataset.live; document.dispatchEvent(new CustomEvent('console:settled', { detail: el.id })); }
    } catch { schedule(el, 10); }
  }
  function schedule(el, s) { setTimeout(() => refresh(el), 1000 * (s || Number(el.dataset.live) || 2)); }
  for (const el of document.querySelectorAll('[data-live]')) schedule(el);
  for (const f of document.querySelectorAll('form[data-confirm]')) {
    f.addEventListener('submit', (e) => { if (!confirm(f.dataset.confirm)) e.preventDefault(); });
  }
})();
`;

const CSS = `
:root { color-scheme: light dark; --fg:#1d232b; --dim:#5f6874; --line:#d9dde2; --bg:#f6f7f9; --card:#fff; --code:#eef0f3;
  --red:#b3261e; --redbg:#fdecea; --green:#256b2a; --greenbg:#e6f4e7; --amber:#8a5300; --amberbg:#fff1d6; --blue:#1f5fbf; --bluebg:#e7f0fd; --grey:#e6e8eb; --top:#1d2733; --topfg:#e8ebef; --link:#1f5fbf; }
@media (prefers-color-scheme: dark) {
  :root { --fg:#e4e7eb; --dim:#a0a8b3; --line:#39414b; --bg:#14181d; --card:#1c2128; --code:#2a313a;
    --red:#ff8a80; --redbg:#3b1d1b; --green:#81c784; --greenbg:#1b3320; --amber:#ffcc80; --amberbg:#3a2c12; --blue:#90b8ff; --bluebg:#1c2b44; --grey:#2f3640; --top:#0d1116; --topfg:#e8ebef; --link:#90b8ff; }
}
* { box-sizing:border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline:3px solid var(--blue); outline-offset:2px; }
code, pre { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:13px; }
code { background:var(--code); padding:0 3px; border-radius:3px; word-break:break-word; }
pre { white-space:pre-wrap; word-break:break-word; background:var(--code); padding:8px 10px; border-radius:4px; margin:4px 0 10px; }
.skip { position:absolute; left:-9999px; top:0; background:var(--card); padding:6px 10px; z-index:2; }
.skip:focus { left:8px; top:8px; }
.sr { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap; }
header.top { display:flex; flex-wrap:wrap; gap:6px 18px; align-items:center; padding:8px 16px; background:var(--top); color:var(--topfg); }
header.top a { color:#cfe0ff; }
header.top .brand { font-weight:700; color:var(--topfg); text-decoration:none; }
header.top nav ul { display:flex; flex-wrap:wrap; gap:4px 14px; list-style:none; margin:0; padding:0; }
header.top nav a[aria-current=page] { color:#fff; font-weight:600; text-decoration-thickness:2px; }
header.top .who { margin-left:auto; display:flex; gap:8px; align-items:center; font-size:14px; }
main { max-width:1200px; margin:0 auto; padding:14px 16px 48px; }
main:focus { outline:none; }
h1 { font-size:22px; margin:6px 0 12px; word-break:break-word; }
h2 { font-size:17px; margin:18px 0 8px; word-break:break-word; }
.dim { color:var(--dim); }
.card { background:var(--card); border:1px solid var(--line); border-radius:6px; padding:12px 14px; margin:0 0 14px; }
.table-wrap { overflow-x:auto; }
table { border-collapse:collapse; width:100%; background:var(--card); border:1px solid var(--line); }
caption { text-align:left; font-weight:600; padding:6px 0; }
th, td { text-align:left; padding:7px 10px; border-top:1px solid var(--line); vertical-align:top; }
th { font-size:13px; color:var(--dim); font-weight:600; }
td.num { font-variant-numeric:tabular-nums; white-space:nowrap; }
.badge { display:inline-block; font-size:12px; font-weight:600; letter-spacing:.02em; padding:1px 7px; border-radius:10px; background:var(--grey); color:var(--fg); }
.badge.passed { background:var(--greenbg); color:var(--green); }
.badge.failed, .badge.error { background:var(--redbg); color:var(--red); }
.badge.flaky { background:var(--amberbg); color:var(--amber); }
.badge.running, .badge.queued, .badge.active { background:var(--bluebg); color:var(--blue); }
ol.strip { display:flex; flex-wrap:wrap; gap:2px; list-style:none; margin:0; padding:0; }
ol.strip a { display:block; width:11px; height:20px; border-radius:2px; background:var(--grey); }
ol.strip a.passed { background:var(--green); } ol.strip a.flaky { background:#d89a2b; }
ol.strip a.failed, ol.strip a.error { background:var(--red); } ol.strip a.running, ol.strip a.queued { background:var(--blue); }
ol.strip a.cancelled { background:var(--dim); }
form.inline { display:inline; }
.filters { display:flex; flex-wrap:wrap; gap:10px 14px; align-items:flex-end; margin:0 0 12px; }
.filters label, .field label { display:block; font-size:13px; color:var(--dim); }
input, select, button, textarea { font:inherit; color:inherit; }
input[type=text], input[type=url], input[type=password], input[type=search], select { padding:6px 8px; border:1px solid var(--line); border-radius:4px; background:var(--card); min-width:12em; max-width:100%; }
input.wide { width:32em; max-width:100%; }
.field { min-width:0; max-width:100%; }
button { padding:6px 14px; border:1px solid var(--blue); border-radius:4px; background:var(--blue); color:#fff; cursor:pointer; }
@media (prefers-color-scheme: dark) { button { color:#0d1116; } }
button.secondary { background:transparent; color:var(--link); }
button.danger { background:var(--red); border-color:var(--red); }
header.top button { background:transparent; border-color:#cfe0ff; color:#cfe0ff; padding:2px 10px; }
.pager { display:flex; gap:14px; align-items:center; margin:10px 0; }
.err { color:var(--red); word-break:break-word; }
.err code { background:var(--redbg); color:var(--red); }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:4px 14px; margin:0; }
dl.facts dt { color:var(--dim); }
dl.facts dd { margin:0; min-width:0; word-break:break-word; }
ol.steps { list-style:none; padding:0; margin:0; }
ol.steps li { border-top:1px solid var(--line); padding:6px 0; display:flex; gap:8px; flex-wrap:wrap; }
ol.steps .n { color:var(--dim); min-width:2em; text-align:right; }
.live-layout { display:grid; grid-template-columns:minmax(0,1fr) 340px; gap:14px; align-items:start; }
.shot img { width:100%; height:auto; border:1px solid var(--line); border-radius:4px; }
iframe.live { width:100%; height:70vh; border:1px solid var(--line); border-radius:6px; background:#fff; }
.grid { display:grid; grid-template-columns:repeat(auto-fit,minmax(180px,1fr)); gap:10px; }
.stat { background:var(--card); border:1px solid var(--line); border-radius:6px; padding:10px 12px; }
.stat .v { font-size:24px; font-weight:600; font-variant-numeric:tabular-nums; }
.stat .k { color:var(--dim); font-size:13px; }
@media (max-width:760px) {
  .live-layout { grid-template-columns:1fr; }
  th, td { padding:6px; }
  table.stack thead { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); }
  table.stack tr { display:block; border-top:1px solid var(--line); padding:6px 0; }
  table.stack td { display:block; border:0; padding:2px 8px; }
  table.stack td[data-label]::before { content:attr(data-label) ": "; color:var(--dim); font-size:13px; }
}
`;
