import type { RunRecord, StepRecord, StoredEvent } from '@ariadne/flows';
import type { Session } from '@ariadne/schema';
import type { SuiteRun, SuiteStatus } from '@ariadne/suites';
import { RUNS_SCANNED, type SuiteSummary, type SuiteRunRow, type RunFilter } from './data.js';
import { ago, badge, csrfField, esc, liveRegion, pager, pct, when } from './layout.js';

// The bodies of the console's pages (the shell is layout.ts). Pure functions of what the
// routes read: every string that came from a tenant, a plan, a page or a model is escaped.

export function signInBody(o: { csrf: string; error?: string; next?: string }): string {
  return `<h1>Sign in to the Ariadne console</h1>
<div class="card">
<p>Paste an API key of your tenant. It is checked once and never stored: the console keeps a sign-in that expires, in a cookie no script can read.</p>
${o.error ? `<p class="err" role="alert" data-code="unauthorized">${esc(o.error)}</p>` : ''}
<form method="post" action="/console/sign-in">
${csrfField(o.csrf)}
${o.next ? `<input type="hidden" name="next" value="${esc(o.next)}">` : ''}
<div class="field"><label for="key">API key</label>
<input type="password" id="key" name="key" autocomplete="current-password" required spellcheck="false"></div>
<p><button type="submit">Sign in</button></p>
</form>
</div>`;
}

const utc = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

function triggerText(t: SuiteRun['trigger'] | undefined): string {
  if (!t) return '<span class="dim">—</span>';
  const bits = [esc(t.type === 'manual' ? 'manual' : t.type === 'schedule' ? 'schedule' : `${t.type} deploy`)];
  if (t.repo) bits.push(esc(t.repo));
  if (t.sha) bits.push(`<code>${esc(t.sha.slice(0, 10))}</code>`);
  if (t.environment) bits.push(`env ${esc(t.environment)}`);
  return bits.join(' · ');
}

function stripOf(suiteId: string, suiteName: string, strip: SuiteRunRow[]): string {
  if (!strip.length) return '<span class="dim">no runs yet</span>';
  // Oldest on the left, like a timeline.
  return `<ol class="strip" aria-label="Last ${strip.length} runs of ${esc(suiteName)}, oldest first">${[...strip].reverse().map((h) => {
    const label = `${h.status}, ${utc(h.run.createdAt)}`;
    return `<li><a class="${esc(h.status)}" href="/console/suites/${esc(encodeURIComponent(suiteId))}/runs/${esc(encodeURIComponent(h.run.id))}" title="${esc(label)}"><span class="sr">Suite run ${esc(label)}</span></a></li>`;
  }).join('')}</ol>`;
}

export function suitesBody(o: { rows: (SuiteSummary & { next: string | null })[]; pageNo: number; hasNext: boolean; total: number }): string {
  if (!o.rows.length) {
    return `<h1>Suites</h1><p>No suite yet. Save one with <code>POST /v1/suites</code> (or <code>ariadne suite create</code>) and it shows here.</p>`;
  }
  const rows = o.rows.map((r) => {
    const s = r.suite;
    const href = `/console/suites/${esc(encodeURIComponent(s.id))}`;
    return `<tr>
<td data-label="Suite"><a href="${href}">${esc(s.name)}</a><br><span class="dim">${s.plans.length} plan${s.plans.length === 1 ? '' : 's'}</span></td>
<td data-label="Status">${r.latest ? badge(r.latest.status) : badge('never')}</td>
<td data-label="Last run">${when(r.latest?.run.createdAt, 'never')}<br><span class="dim">${r.latest ? triggerText(r.latest.run.trigger) : ''}</span></td>
<td data-label="Last 30 runs">${stripOf(s.id, s.name, r.strip)}</td>
<td data-label="Pass 7 d / 30 d" class="num">${pct(r.passRate7)} / ${pct(r.passRate30)}</td>
<td data-label="Flaky 7 d / 30 d" class="num">${pct(r.flakyRate7)} / ${pct(r.flakyRate30)}</td>
<td data-label="Next scheduled run">${s.schedule ? when(r.next, 'scheduled') : '<span class="dim">not scheduled</span>'}</td>
</tr>`;
  }).join('\n');
  return `<h1>Suites</h1>
${liveRegion('suites-table', `<div class="table-wrap"><table class="stack">
<caption>${o.total} suite${o.total === 1 ? '' : 's'}${o.pageNo > 1 ? `, page ${o.pageNo}` : ''}</caption>
<thead><tr><th scope="col">Suite</th><th scope="col">Status</th><th scope="col">Last run</th><th scope="col">Last 30 runs</th><th scope="col">Pass rate 7 d / 30 d</th><th scope="col">Flaky rate 7 d / 30 d</th><th scope="col">Next scheduled run</th></tr></thead>
<tbody>${rows}</tbody></table></div>`, true, 15)}
${pager('/console/suites', new URLSearchParams(), o.pageNo, o.hasNext, 'suites')}`;
}

export interface SuitePageData {
  summary: SuiteSummary;
  next: string | null;
  triggers: { id: string; type: string; environments?: string[]; url: string }[];
  history: SuiteRunRow[];
  pageNo: number;
  hasNext: boolean;
  csrf: string;
}

export function suiteBody(d: SuitePageData): string {
  const s = d.summary.suite;
  const id = esc(encodeURIComponent(s.id));
  const facts: [string, string][] = [
    ['Status', d.summary.latest ? badge(d.summary.latest.status) : badge('never')],
    ['Base URL', `<code>${esc(s.baseUrl)}</code>`],
    ['Planner', esc(s.planner ?? 'server default') + (s.model ? ` (${esc(s.model)})` : '')],
    ['Retries', esc(s.retries ?? 0)],
    ['Pass rate', `${pct(d.summary.passRate7)} over 7 days, ${pct(d.summary.passRate30)} over 30 days`],
    ['Flaky rate', `${pct(d.summary.flakyRate7)} over 7 days, ${pct(d.summary.flakyRate30)} over 30 days`],
    ['Schedule', s.schedule ? `<code>${esc(s.schedule.cron)}</code>${s.schedule.timezone ? ` ${esc(s.schedule.timezone)}` : ''}; next run ${when(d.next, 'unknown')}` : '<span class="dim">none</span>'],
    ['Variables', Object.keys(s.variables).length ? Object.keys(s.variables).map((k) => `<code>${esc(k)}</code>`).join(' ') : '<span class="dim">none</span>'],
    ['Secrets', s.secretNames.length ? `${s.secretNames.map((k) => `<code>${esc(k)}</code>`).join(' ')} <span class="dim">(values are never shown)</span>` : '<span class="dim">none</span>'],
  ];
  const history = d.history.length
    ? `<div class="table-wrap"><table class="stack"><caption>Suite runs, newest first${d.pageNo > 1 ? `, page ${d.pageNo}` : ''}</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Trigger</th><th scope="col">Base URL</th><th scope="col">Runs</th></tr></thead><tbody>
${d.history.map((h) => `<tr><td data-label="Started"><a href="/console/suites/${id}/runs/${esc(encodeURIComponent(h.run.id))}"><span class="sr">Suite run of ${esc(utc(h.run.createdAt))}: </span>${when(h.run.createdAt)}</a></td><td data-label="Status">${badge(h.status)}</td><td data-label="Trigger">${triggerText(h.run.trigger)}</td><td data-label="Base URL"><code>${esc(h.run.baseUrl)}</code></td><td data-label="Runs" class="num">${h.run.runs.length}</td></tr>`).join('\n')}
</tbody></table></div>${pager(`/console/suites/${id}`, new URLSearchParams(), d.pageNo, d.hasNext, 'history')}`
    : '<p class="dim">No run yet.</p>';
  return `<h1>Suite ${esc(s.name)}</h1>
<section class="card" aria-labelledby="run-now"><h2 id="run-now">Run now</h2>
<form method="post" action="/console/suites/${id}/run">${csrfField(d.csrf)}
<div class="filters"><div class="field"><label for="baseUrl">Base URL (optional, default ${esc(s.baseUrl)})</label>
<input type="url" id="baseUrl" name="baseUrl" class="wide" placeholder="${esc(s.baseUrl)}" maxlength="2048"></div>
<button type="submit">Run now</button></div></form></section>
<section aria-labelledby="facts"><h2 id="facts">About</h2><div class="card"><dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl></div></section>
<section aria-labelledby="strip"><h2 id="strip">Last ${d.summary.strip.length} runs</h2>${stripOf(s.id, s.name, d.summary.strip)}</section>
<section aria-labelledby="plans"><h2 id="plans">Plans</h2>
${s.plans.map((p, i) => `<h3 id="plan-${i}">${esc(p.name)}${p.path ? ` <span class="dim">at <code>${esc(p.path)}</code></span>` : ''}</h3><pre>${esc(p.plan)}</pre>`).join('\n')}</section>
<section aria-labelledby="triggers"><h2 id="triggers">Triggers</h2>
${d.triggers.length ? `<ul>${d.triggers.map((t) => `<li>${esc(t.type)}${t.environments?.length ? ` (environments ${t.environments.map((e) => esc(e)).join(', ')})` : ''}: <code>${esc(t.url)}</code></li>`).join('')}</ul><p class="dim">Signing secrets are never shown.</p>` : '<p class="dim">No deploy trigger.</p>'}
</section>
<section aria-labelledby="history-h"><h2 id="history-h">History</h2>${history}</section>`;
}

export interface RunLinks {
  report(rec: RunRecord): Promise<string>;
}

export function suiteRunBody(o: { suiteId: string; suiteName: string; run: SuiteRun; status: SuiteStatus; rows: { plan: string; runId: string; rec: RunRecord | null; reportHref: string | null }[] }): string {
  const live = o.status === 'queued' || o.status === 'running';
  const table = `<p>Status ${badge(o.status)}${live ? ' <span class="dim">(following live)</span>' : ''}</p>
<div class="table-wrap"><table class="stack"><caption>Runs of this suite run</caption>
<thead><tr><th scope="col">Plan</th><th scope="col">Status</th><th scope="col">Cases</th><th scope="col">Report</th></tr></thead><tbody>
${o.rows.map((r) => `<tr><td data-label="Plan"><a href="/console/runs/${esc(encodeURIComponent(r.runId))}">${esc(r.plan)}</a></td><td data-label="Status">${badge(r.rec?.status ?? 'expired')}</td><td data-label="Cases" class="num">${r.rec?.report ? `${r.rec.report.totals.passed + r.rec.report.totals.flaky}/${r.rec.report.totals.cases} passed` : ''}</td><td data-label="Report">${r.reportHref ? `<a href="${esc(r.reportHref)}">Report of ${esc(r.plan)}</a>` : ''}</td></tr>`).join('\n')}
</tbody></table></div>`;
  return `<p><a href="/console/suites/${esc(encodeURIComponent(o.suiteId))}">Suite ${esc(o.suiteName)}</a></p>
<h1>Suite run of ${esc(o.suiteName)}</h1>
<div class="card"><dl class="facts"><dt>Started</dt><dd>${when(o.run.createdAt)}</dd><dt>Trigger</dt><dd>${triggerText(o.run.trigger)}</dd><dt>Base URL</dt><dd><code>${esc(o.run.baseUrl)}</code></dd></dl></div>
${liveRegion('suite-run', table, live)}`;
}

const RUN_STATUSES = ['queued', 'running', 'passed', 'failed', 'error', 'cancelled'];

export function runsBody(o: { rows: { rec: RunRecord; href: string }[]; filter: RunFilter; pageNo: number; hasNext: boolean; suites: { id: string; name: string }[]; scanned: number }): string {
  const f = o.filter;
  const q = new URLSearchParams(Object.entries(f).filter(([, v]) => v) as [string, string][]);
  const suiteName = new Map(o.suites.map((s) => [s.id, s.name]));
  const rows = o.rows.map(({ rec, href }) => {
    const t = rec.report?.totals;
    const title = rec.request.suite ? `${suiteName.get(rec.request.suite.id) ?? rec.request.suite.id} · ${rec.request.suite.plan}` : rec.report?.cases[0]?.name ?? rec.request.url;
    return `<tr><td data-label="Run"><a href="${esc(href)}">${esc(title)}</a><br><span class="dim"><code>${esc(rec.id.slice(0, 8))}</code></span></td>
<td data-label="Status">${badge(rec.status)}</td>
<td data-label="Cases" class="num">${t ? `${t.passed + t.flaky}/${t.cases}` : ''}</td>
<td data-label="Environment">${esc(rec.request.suite?.trigger?.environment ?? '')}</td>
<td data-label="Created">${when(rec.createdAt)}</td></tr>`;
  }).join('\n');
  return `<h1>Runs</h1>
<form class="filters" method="get" action="/console/runs" role="search" aria-label="Filter runs">
<div class="field"><label for="f-status">Status</label><select id="f-status" name="status"><option value="">any</option>${RUN_STATUSES.map((s) => `<option${f.status === s ? ' selected' : ''}>${s}</option>`).join('')}</select></div>
<div class="field"><label for="f-suite">Suite</label><select id="f-suite" name="suite"><option value="">any</option>${o.suites.map((s) => `<option value="${esc(s.id)}"${f.suite === s.id ? ' selected' : ''}>${esc(s.name)}</option>`).join('')}</select></div>
<div class="field"><label for="f-env">Environment</label><input type="text" id="f-env" name="environment" value="${esc(f.environment ?? '')}" maxlength="100"></div>
<div class="field"><label for="f-text">Case or step text</label><input type="search" id="f-text" name="text" value="${esc(f.text ?? '')}" maxlength="200"></div>
<button type="submit">Filter</button>
</form>
${o.rows.length ? `<div class="table-wrap"><table class="stack"><caption>Runs, newest first${o.pageNo > 1 ? `, page ${o.pageNo}` : ''}${o.scanned >= RUNS_SCANNED ? ` <span class="dim">(the ${RUNS_SCANNED} most recent runs are searched)</span>` : ''}</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Cases passed</th><th scope="col">Environment</th><th scope="col">Created</th></tr></thead>
<tbody>${rows}</tbody></table></div>` : '<p>No run matches.</p>'}
${pager('/console/runs', q, o.pageNo, o.hasNext, 'runs')}`;
}

/** The steps of a run as its event stream told them, newest last, and the latest screenshot. */
export function runBody(o: { rec: RunRecord; events: StoredEvent[]; reportHref: string; suiteName?: string }, shot: { href: string; step: number } | null): string {
  const { rec } = o;
  const live = rec.status === 'queued' || rec.status === 'running';
  const steps: { c: number; s: StepRecord }[] = [];
  const cases = new Map<number, string>();
  for (const e of o.events) {
    if (e.type === 'case_started') cases.set(e.case, e.name);
    if (e.type === 'step') steps.push({ c: e.case, s: e.step });
  }
  const list = steps.length
    ? `<ol class="steps">${steps.slice(-300).map(({ c, s }) => `<li><span class="n">${esc(s.n)}</span>${badge(s.status)} <span>${esc(s.asked)}</span>${cases.size > 1 ? ` <span class="dim">(${esc(cases.get(c) ?? `case ${c}`)})</span>` : ''}${s.error ? ` <span class="err"><code>${esc(s.error.code)}</code> ${esc(s.error.message)}</span>` : ''}</li>`).join('')}</ol>`
    : `<p class="dim">${live ? 'No step yet.' : 'No step was recorded.'}</p>`;
  const region = `<p>Status ${badge(rec.status)}${live ? ' <span class="dim">(following live)</span>' : ''} · <a href="${esc(o.reportHref)}">Open the report</a></p>
<div class="live-layout"><section aria-labelledby="steps-h"><h2 id="steps-h">Steps</h2>${list}</section>
<section aria-labelledby="shot-h"><h2 id="shot-h">Latest screenshot</h2>${shot ? `<div class="shot"><img src="${esc(shot.href)}" alt="Screenshot after step ${esc(shot.step)}" width="320" height="200"></div>` : '<p class="dim">None yet.</p>'}</section></div>`;
  const title = rec.request.suite ? `${o.suiteName ?? rec.request.suite.id} · ${rec.request.suite.plan}` : `Run on ${rec.request.url}`;
  return `<h1>${esc(title)}</h1>
<div class="card"><dl class="facts"><dt>Run</dt><dd><code>${esc(rec.id)}</code></dd><dt>Base URL</dt><dd><code>${esc(rec.request.url)}</code></dd><dt>Created</dt><dd>${when(rec.createdAt)}</dd>${rec.request.suite ? `<dt>Suite</dt><dd><a href="/console/suites/${esc(encodeURIComponent(rec.request.suite.id))}">${esc(o.suiteName ?? rec.request.suite.id)}</a></dd>` : ''}</dl></div>
${liveRegion('run-live', region, live, 1)}`;
}

export function sessionsBody(o: { rows: Session[]; pageNo: number; hasNext: boolean; now: number }): string {
  const table = o.rows.length
    ? `<div class="table-wrap"><table class="stack"><caption>Live sessions${o.pageNo > 1 ? `, page ${o.pageNo}` : ''}</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Roles</th><th scope="col">Tabs</th><th scope="col">Age</th><th scope="col">Node</th></tr></thead><tbody>
${o.rows.map((s) => `<tr><td data-label="Session"><a href="/console/sessions/${esc(encodeURIComponent(s.id))}">Session ${esc(s.id.slice(0, 8))}</a>${s.metadata && Object.keys(s.metadata).length ? `<br><span class="dim">${Object.entries(s.metadata).slice(0, 4).map(([k, v]) => `${esc(k)}=${esc(String(v).slice(0, 60))}`).join(' ')}</span>` : ''}</td>
<td data-label="Roles">${s.roles.map((r) => esc(r.name)).join(', ')}</td>
<td data-label="Tabs" class="num">${s.roles.reduce((n, r) => n + r.pages.length, 0)}</td>
<td data-label="Age" class="num">${esc(ago(s.createdAt, o.now))}</td>
<td data-label="Node"><code>${esc(s.node)}</code></td></tr>`).join('\n')}
</tbody></table></div>`
    : '<p>No live session.</p>';
  return `<h1>Sessions</h1>${liveRegion('sessions-table', table, true, 5)}${pager('/console/sessions', new URLSearchParams(), o.pageNo, o.hasNext, 'sessions')}`;
}

export function sessionBody(o: { s: Session; liveHref: string; csrf: string; now: number }): string {
  const { s } = o;
  const id = esc(encodeURIComponent(s.id));
  return `<p><a href="/console/sessions">All sessions</a></p>
<h1>Session ${esc(s.id.slice(0, 8))}</h1>
<div class="card"><dl class="facts"><dt>Id</dt><dd><code>${esc(s.id)}</code></dd><dt>Status</dt><dd>${badge(s.status)}</dd><dt>Node</dt><dd><code>${esc(s.node)}</code></dd>
<dt>Age</dt><dd>${esc(ago(s.createdAt, o.now))} (since ${when(s.createdAt)})</dd><dt>Expires</dt><dd>${when(s.expiresAt)}</dd>
<dt>Roles</dt><dd><ul>${s.roles.map((r) => `<li>${esc(r.name)}: ${r.pages.map((p) => `${esc(p.title || '(untitled)')} <code>${esc(p.url)}</code>`).join('; ') || '<span class="dim">no tab</span>'}</li>`).join('')}</ul></dd></dl>
<p><a href="${esc(o.liveHref)}">Open the live view in its own page</a></p>
<form method="post" action="/console/sessions/${id}/end" data-confirm="End this session? Its browsers close.">${csrfField(o.csrf)}<button type="submit" class="danger">End session</button></form></div>
<section aria-labelledby="live-h"><h2 id="live-h">Live view and event log</h2>
<iframe class="live" src="${esc(o.liveHref)}" title="Live view of session ${esc(s.id.slice(0, 8))}: screencast and event log"></iframe></section>`;
}

export interface PressureView {
  node: string;
  running: number;
  leased: number;
  capacity: number;
  queued: number;
  clusterLeased: number;
  clusterCapacity: number;
  /** Live nodes (-1: unknown), as /v1/pressure tells every tenant. */
  nodeCount: number;
  quota: { label: string; limit: number; used: number | null }[];
  nodes: { id: string; url: string; capacity: number; leased: number; sessions: number; heartbeatAt: string }[] | null;
}

export function pressureBody(p: PressureView): string {
  const stat = (k: string, v: string) => `<div class="stat"><div class="v">${v}</div><div class="k">${k}</div></div>`;
  const known = (n: number) => (n < 0 ? '—' : String(n));
  const free = p.clusterCapacity >= 0 ? p.clusterCapacity - p.clusterLeased : p.capacity - p.leased;
  const quota = p.quota.map((q) => `<tr><th scope="row">${esc(q.label)}</th><td class="num">${esc(q.limit || 'unlimited')}</td><td class="num">${esc(q.used ?? '—')}</td></tr>`).join('');
  const body = `<h2>Pool</h2><div class="grid">
${stat('Slots used (cluster)', esc(p.clusterLeased >= 0 ? p.clusterLeased : p.leased))}
${stat('Slots free (cluster)', esc(Math.max(0, free)))}
${stat('Session requests queued', esc(known(p.queued)))}
${stat(`Slots used on this node (${esc(p.node)})`, `${esc(p.leased)}/${esc(p.capacity)}`)}
${stat('Live nodes', esc(known(p.nodeCount)))}
</div>
<h2>Your quotas</h2><div class="table-wrap"><table><caption>Limits of your tenant and what it holds now</caption><thead><tr><th scope="col">Limit</th><th scope="col">Value</th><th scope="col">In use</th></tr></thead><tbody>${quota}</tbody></table></div>
${p.nodes ? `<h2>Nodes</h2><div class="table-wrap"><table class="stack"><caption>Live nodes</caption><thead><tr><th scope="col">Node</th><th scope="col">Slots used</th><th scope="col">Sessions</th><th scope="col">Heartbeat</th></tr></thead><tbody>${p.nodes.map((n) => `<tr><td data-label="Node"><code>${esc(n.id)}</code> <span class="dim">${esc(n.url)}</span></td><td data-label="Slots used" class="num">${esc(n.leased)}/${esc(n.capacity)}</td><td data-label="Sessions" class="num">${esc(n.sessions)}</td><td data-label="Heartbeat">${when(n.heartbeatAt)}</td></tr>`).join('')}</tbody></table></div>` : ''}`;
  return `<h1>Pressure</h1>${liveRegion('pressure', body, true, 5)}`;
}
