import type { AssertionRecord, CaseReport, RunRecord, StepError, StepRecord } from '@ariadne/flows';

// The human report of a run: one static HTML page, no script, no external resource
// (the route sends a CSP that allows only inline style and same-origin images). What
// broke comes first: a summary of the failing case and step, its error and the nearest
// candidates, fits the first screen; then every case with its steps (what the plan
// asked, what was done, on which element and why, the verified locator, timing, the
// screenshot). Everything that came from a plan, a page or a model is escaped.

export interface ReportPageLinks {
  /** URL of one artifact of the run (a screenshot: signed when the page is opened with a link). */
  screenshot(name: string): string;
  /** URL of a case's trace (needs the key). */
  trace(name: string): string;
  junit: string;
  spec: string;
  json: string;
  /** Set when the page was opened with a signed link: the other links need the key. */
  signedUntil?: string;
}

/** A case status as reports may carry it now or later (retries add 'flaky'). */
type AnyCase = Omit<CaseReport, 'status'> & { status: string; attempts?: unknown };

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]);
}

function ms(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(n / 60_000);
  return `${m} min ${Math.round((n % 60_000) / 1000)} s`;
}

function when(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? esc(iso) : `<time datetime="${esc(iso)}">${esc(d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function badge(status: string): string {
  const cls = /^(passed|failed|error|cancelled|skipped|flaky|running|queued)$/.test(status) ? status : 'other';
  return `<span class="badge ${cls}">${esc(status)}</span>`;
}

/** Attempts as retries may record them: a number, or a list of attempts. */
function attemptsOf(c: AnyCase): number | null {
  const a = c.attempts;
  if (typeof a === 'number' && Number.isFinite(a)) return a;
  if (Array.isArray(a)) return a.length;
  return null;
}

interface Failure {
  c: AnyCase;
  step?: StepRecord;
  assertion?: AssertionRecord;
  error?: StepError;
  missing?: { planStep: number; text: string }[];
}

/** The first thing that broke: a failing case's failing step, else its failed assertion, missing assertions or error. */
function firstFailure(cases: AnyCase[]): Failure | null {
  for (const c of cases) {
    if (c.status !== 'failed') continue;
    const step = c.steps.find((s) => s.status === 'failed');
    if (step) return { c, step, error: step.error ?? step.assertion?.error };
    const assertion = c.assertions.find((a) => !a.passed);
    if (assertion) return { c, assertion, error: assertion.error };
    if (c.error) return { c, error: c.error };
    if (c.missingAssertions.length) return { c, missing: c.missingAssertions };
    return { c };
  }
  return null;
}

function stepAnchor(c: { index: number }, s: { n: number }): string {
  return esc(`c${c.index}-s${s.n}`);
}

function nearestOf(error: StepError | undefined): { role?: string; name?: string; ref?: string }[] {
  const n = error?.details?.nearest;
  return Array.isArray(n) ? (n as { role?: string; name?: string; ref?: string }[]).slice(0, 6) : [];
}

/** The diagnostics of an error, as a definition list: candidates, hint, URL, the rest compact. */
function diagnostics(error: StepError | undefined, assertion?: AssertionRecord): string {
  const parts: string[] = [];
  // (What was seen, unless the error message already says it.)
  if (assertion?.actual !== undefined && !(error?.message ?? '').includes(String(assertion.actual))) parts.push(`<dt>Actual</dt><dd><q>${esc(String(assertion.actual).slice(0, 500))}</q></dd>`);
  const nearest = nearestOf(error);
  if (nearest.length) {
    parts.push(`<dt>Nearest candidates</dt><dd><ul class="cands">${nearest.map((n) => `<li><code>${esc(n.role ?? '')}</code> ${n.name ? `<q>${esc(n.name)}</q>` : ''}${n.ref ? ` <span class="dim">${esc(n.ref)}</span>` : ''}</li>`).join('')}</ul></dd>`);
  }
  const d = error?.details ?? {};
  if (typeof d.hint === 'string') parts.push(`<dt>Hint</dt><dd>${esc(d.hint)}</dd>`);
  if (typeof d.currentUrl === 'string') parts.push(`<dt>Page</dt><dd><code>${esc(d.currentUrl)}</code></dd>`);
  // The rest of the details, compact (the JSON report has them in full).
  const rest = Object.entries(d).filter(([k]) => !['nearest', 'hint', 'currentUrl', 'description'].includes(k));
  if (rest.length) {
    const text = rest.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
    parts.push(`<dt>Details</dt><dd><pre>${esc(text.length > 1500 ? `${text.slice(0, 1500)}…` : text)}</pre></dd>`);
  }
  return parts.length ? `<dl class="diag">${parts.join('')}</dl>` : '';
}

function errorLine(error: StepError | undefined): string {
  return error ? `<p class="err"><code>${esc(error.code)}</code> ${esc(error.message)}</p>` : '';
}

function targetOf(s: StepRecord): string {
  const t = s.target;
  const bits: string[] = [];
  if (t?.role || t?.name) bits.push(`<code>${esc(t.role ?? '')}</code>${t.name ? ` <q>${esc(t.name)}</q>` : ''}`);
  else if (s.ref) bits.push(`<code>${esc(s.ref)}</code>`);
  return bits.join('');
}

function paramsOf(s: StepRecord): string {
  const p = s.params;
  if (!p) return '';
  const shown: string[] = [];
  if (p.url) shown.push(`<code>${esc(p.url)}</code>`);
  if (p.value !== undefined) shown.push(`<q>${esc(Array.isArray(p.value) ? p.value.join(', ') : p.value)}</q>`);
  if (p.text !== undefined) shown.push(`<q>${esc(p.text)}</q>`);
  if (p.key) shown.push(`<kbd>${esc(p.key)}</kbd>`);
  return shown.join(' ');
}

function stepRow(c: AnyCase, s: StepRecord, links: ReportPageLinks, failing: boolean): string {
  const loc = s.locator ?? s.assertion?.locator;
  const locator = loc && loc.code
    ? `<div class="loc"><code>${esc(loc.code)}</code> ${loc.verified ? '<span class="ok" title="proven on the live page: exactly this one element">verified</span>' : '<span class="warn">not verified</span>'}${loc.strategy ? ` <span class="dim">${esc(loc.strategy)}</span>` : ''}</div>`
    : '';
  const a = s.assertion;
  const check = a
    ? `<div class="check">${a.passed ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>'} ${a.expect ? `<code>${esc(a.expect)}</code>` : esc(a.description)}${a.actual !== undefined && a.passed ? ` <span class="dim">saw</span> <q>${esc(String(a.actual).slice(0, 200))}</q>` : ''}</div>`
    : '';
  const why = s.target ? `<div class="why"><span class="dim">resolved by</span> ${esc(s.target.rung)}${s.target.why ? ` — ${esc(s.target.why)}` : ''}</div>` : '';
  const shot = s.screenshot
    ? `<a class="shot" href="${esc(links.screenshot(s.screenshot))}"><img loading="lazy" src="${esc(links.screenshot(s.screenshot))}" alt="Screenshot after step ${s.screenshotOf ?? s.n}" width="320" height="200"></a>${s.screenshotOf !== undefined ? `<span class="dim noshot">unchanged since step ${s.screenshotOf}</span>` : ''}`
    : s.screenshotSkipped ? `<span class="dim noshot">no screenshot (${esc(s.screenshotSkipped)})</span>` : '';
  const markers = [
    s.healed ? '<span class="badge healed" title="the recorded locator no longer resolved; the planner redid this step">healed</span>' : '',
    s.role && s.role !== 'default' ? `<span class="role">as ${esc(s.role)}</span>` : '',
  ].join(' ');
  return `<li id="${stepAnchor(c, s)}" class="step ${esc(s.status)}${failing ? ' failing' : ''}">
<div class="stephead"><span class="n">${esc(s.n)}</span>${badge(s.status)} <span class="asked">${esc(s.asked)}</span>${s.part ? ` <span class="dim">(part: ${esc(s.part)})</span>` : ''} ${markers}<span class="time">${ms(s.durationMs)}</span></div>
<div class="stepbody"><div class="did">
<div><span class="action">${esc(s.action)}</span> ${targetOf(s)} ${paramsOf(s)}${s.keys?.length ? ` <kbd>${esc(s.keys.join(' '))}</kbd>` : ''}</div>
${check}${locator}${why}${s.effect ? `<div class="dim">effect: ${esc(s.effect)}</div>` : ''}${s.url ? `<div class="dim url">${esc(s.url)}</div>` : ''}
${errorLine(s.error ?? s.assertion?.error)}${s.status === 'failed' ? diagnostics(s.error ?? s.assertion?.error, s.assertion) : ''}
</div>${shot}</div></li>`;
}

function caseBlock(c: AnyCase, links: ReportPageLinks, failure: Failure | null): string {
  const attempts = attemptsOf(c);
  const healed = c.healedSteps?.length ? `<span class="badge healed">${c.healedSteps.length} healed</span>` : '';
  // Mandatory checks with no passing assertion, leaving out those a failed step already shows.
  const failedPlanSteps = new Set(c.steps.filter((s) => s.status === 'failed').map((s) => s.planStep));
  const missing = c.missingAssertions.filter((m) => !failedPlanSteps.has(m.planStep));
  const failedAssertions = c.assertions.filter((a) => !a.passed && !c.steps.some((s) => s.assertion === a || (s.status === 'failed' && s.planStep !== undefined && s.planStep === a.planStep)));
  return `<section class="case ${esc(c.status)}" id="case-${esc(c.index)}">
<h2>${badge(c.status)} ${esc(c.name)}${c.status === 'flaky' ? ' <span class="badge flaky" title="failed, then passed on a retry">flaky</span>' : ''} ${healed}</h2>
<p class="meta">${ms(c.durationMs)}${attempts !== null ? ` · ${attempts} attempt${attempts === 1 ? '' : 's'}` : ''} · ${c.steps.length} step${c.steps.length === 1 ? '' : 's'}, ${c.assertions.length} assertion${c.assertions.length === 1 ? '' : 's'}${c.usage?.turns ? ` · ${c.usage.turns} model turns` : ''}${c.trace ? ` · <a href="${esc(links.trace(c.trace))}">trace</a>` : ''}</p>
${c.summary ? `<p class="summary-text">${esc(c.summary)}</p>` : ''}
${errorLine(c.error)}
${missing.length ? `<div class="missing"><strong>Mandatory checks never asserted:</strong><ul>${missing.map((m) => `<li>step ${m.planStep}: ${esc(m.text)}</li>`).join('')}</ul></div>` : ''}
${failedAssertions.map((a) => `<div class="assert-failed">${badge('failed')} ${esc(a.description)}${errorLine(a.error)}${diagnostics(a.error, a)}</div>`).join('')}
<ol class="steps">${c.steps.map((s) => stepRow(c, s, links, failure?.c === c && failure.step === s)).join('\n')}</ol>
</section>`;
}

function summaryBlock(rec: RunRecord, cases: AnyCase[], failure: Failure | null, links: ReportPageLinks): string {
  const runError = rec.report?.error ?? rec.error;
  if (!failure && !runError) {
    const flaky = cases.filter((c) => c.status === 'flaky');
    if (rec.status === 'passed') {
      return `<section class="summary passed" id="summary"><h2>All ${cases.length} case${cases.length === 1 ? '' : 's'} passed${flaky.length ? `, ${flaky.length} flaky` : ''}</h2>${flaky.length ? `<p>Passed only on a retry: ${flaky.map((c) => `<a href="#case-${esc(c.index)}">${esc(c.name)}</a>`).join(', ')}</p>` : ''}</section>`;
    }
    return `<section class="summary ${esc(rec.status)}" id="summary"><h2>Run ${esc(rec.status)}</h2></section>`;
  }
  if (!failure) {
    return `<section class="summary failed" id="summary"><h2>The run stopped: ${esc(runError!.code)}</h2>${errorLine(runError)}${diagnostics(runError)}</section>`;
  }
  const { c, step, assertion, error, missing } = failure;
  const shot = step?.screenshot
    ? `<a class="shot" href="${esc(links.screenshot(step.screenshot))}"><img src="${esc(links.screenshot(step.screenshot))}" alt="Screenshot of the failing step" width="320" height="200"></a>`
    : '';
  const where = step
    ? `<p class="failing-step"><a href="#${stepAnchor(c, step)}">Step ${step.n}${step.planStep !== undefined && step.planStep !== step.n ? ` (plan step ${step.planStep})` : ''}</a>: <span class="asked">${esc(step.asked)}</span></p>
${targetOf(step) || paramsOf(step) ? `<p class="did"><span class="action">${esc(step.action)}</span> ${targetOf(step)} ${paramsOf(step)}</p>` : ''}`
    : assertion ? `<p class="failing-step">Check: <span class="asked">${esc(assertion.description)}</span></p>`
    : missing ? `<p class="failing-step">Mandatory checks never asserted: ${missing.map((m) => `<span class="asked">${esc(m.text)}</span>`).join('; ')}</p>` : '';
  return `<section class="summary failed" id="summary"><div class="sumtext">
<h2>Failed: <a href="#case-${esc(c.index)}">${esc(c.name)}</a></h2>
${where}
${errorLine(error ?? runError)}
${diagnostics(error, assertion ?? step?.assertion)}
</div>${shot}</section>`;
}

export function reportPage(rec: RunRecord, links: ReportPageLinks): string {
  const report = rec.report;
  const cases = (report?.cases ?? []) as AnyCase[];
  const failure = firstFailure(cases);
  const suite = rec.request.suite;
  const trigger = suite?.trigger ?? {};
  const title = suite ? suite.plan : `Run on ${hostOf(rec.request.url)}`;
  const totals = report?.totals;
  const passedCount = cases.filter((c) => c.status === 'passed' || c.status === 'flaky').length;
  const duration = report?.durationMs ?? (rec.startedAt && rec.finishedAt ? Date.parse(rec.finishedAt) - Date.parse(rec.startedAt) : undefined);
  const live = rec.status === 'queued' || rec.status === 'running';
  const facts: [string, string][] = [
    ['Status', `${badge(rec.status)}${totals ? ` ${passedCount}/${totals.cases} cases passed` : ''}`],
    ['Base URL', `<code>${esc(rec.request.url)}</code>`],
    ...(suite ? [['Suite', `<code>${esc(suite.id)}</code>`] as [string, string]] : []),
    ...(trigger.sha ? [['Commit', `<code>${esc(trigger.sha.slice(0, 12))}</code>${trigger.repo ? ` ${esc(trigger.repo)}` : ''}`] as [string, string]] : []),
    ...(trigger.environment ? [['Environment', esc(trigger.environment)] as [string, string]] : []),
    ...(trigger.type ? [['Trigger', esc(trigger.type)] as [string, string]] : []),
    ['Started', when(rec.startedAt ?? report?.startedAt) || '<span class="dim">not yet</span>'],
    ...(duration !== undefined && Number.isFinite(duration) ? [['Duration', ms(duration)] as [string, string]] : []),
    ['Planner', `${esc(rec.request.planner)}${rec.request.model ? ` (${esc(rec.request.model)})` : ''}`],
    ...(rec.attempts > 1 ? [['Workers', `${rec.attempts} (restarted)`] as [string, string]] : []),
    ...(rec.request.replayOf ? [['Replay of', `<code>${esc(rec.request.replayOf)}</code>`] as [string, string]] : []),
  ];
  const canSpec = !live && cases.some((c) => c.status === 'passed');
  const needKey = links.signedUntil ? ' <span class="dim">(API key)</span>' : '';
  const nav = [
    report ? `<a href="${esc(links.json)}">JSON report</a>${needKey}` : '',
    report ? `<a href="${esc(links.junit)}">JUnit</a>${needKey}` : '',
    canSpec ? `<a href="${esc(links.spec)}">Playwright spec</a>${needKey}` : '',
    // The trace of the case that failed (else the first): each case links its own below.
    ...[failure?.c.trace ? failure.c : cases.find((c) => c.trace)].filter((c): c is AnyCase => !!c?.trace)
      .map((c) => `<a href="${esc(links.trace(c.trace!))}">trace${cases.filter((x) => x.trace).length > 1 ? ` (case ${c.index})` : ''}</a>${needKey}`),
  ].filter(Boolean).join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${live ? '<meta http-equiv="refresh" content="5">' : ''}
<title>${esc(`${rec.status === 'failed' ? '✗' : rec.status === 'passed' ? '✓' : '…'} ${title} — Ariadne report`)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="top"><span class="brand">Ariadne</span> <span class="dim">run</span> <code>${esc(rec.id)}</code><nav>${nav}</nav></header>
<main>
<h1>${esc(title)} ${badge(rec.status)}</h1>
${summaryBlock(rec, cases, failure, links)}
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('')}</dl>
${live ? '<p class="dim">The run is still going: this page reloads every 5 seconds.</p>' : ''}
${cases.length ? cases.map((c) => caseBlock(c, links, failure)).join('\n') : '<p class="dim">No case has started yet.</p>'}
${links.signedUntil ? `<p class="dim foot">Opened with a signed link valid until ${when(links.signedUntil)}; the JSON, JUnit, spec and trace links need an API key.</p>` : ''}
</main>
</body>
</html>
`;
}

const CSS = `
:root { --fg:#1d232b; --dim:#6a7380; --line:#e3e6ea; --bg:#f6f7f9; --red:#c62828; --redbg:#fdecea; --green:#2e7d32; --greenbg:#e8f5e9; --amber:#a86400; --amberbg:#fff4e0; --blue:#1f5fbf; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--blue); }
code, kbd, pre { font-family: ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12.5px; }
code { background:#eef0f3; padding:0 3px; border-radius:3px; word-break:break-word; }
kbd { border:1px solid var(--line); border-bottom-width:2px; border-radius:3px; padding:0 4px; background:#fff; }
pre { white-space:pre-wrap; word-break:break-word; margin:0; }
q { quotes:"\\201C" "\\201D"; }
.dim { color:var(--dim); }
header.top { display:flex; gap:8px; align-items:baseline; padding:8px 20px; background:#1d2733; color:#e8ebef; }
header.top code { background:transparent; color:#e8ebef; }
header.top .brand { font-weight:600; }
header.top .dim { color:#9aa4b0; }
header.top nav { margin-left:auto; font-size:13px; }
header.top nav a { color:#9cc3ff; }
main { max-width:1180px; margin:0 auto; padding:12px 20px 40px; }
h1 { font-size:20px; margin:4px 0 10px; word-break:break-word; }
h2 { font-size:16px; margin:0 0 6px; word-break:break-word; }
.badge { display:inline-block; font-size:11px; font-weight:600; text-transform:uppercase; letter-spacing:.03em; padding:1px 6px; border-radius:10px; vertical-align:2px; background:#e6e8eb; color:#444; }
.badge.passed { background:var(--greenbg); color:var(--green); }
.badge.failed, .badge.error { background:var(--redbg); color:var(--red); }
.badge.flaky, .badge.healed { background:var(--amberbg); color:var(--amber); }
.badge.running, .badge.queued { background:#e7f0fd; color:var(--blue); }
.summary { display:flex; gap:16px; align-items:flex-start; border:1px solid var(--line); border-left:5px solid var(--dim); background:#fff; border-radius:6px; padding:12px 16px; margin:0 0 12px; }
.summary.failed, .summary.error { border-left-color:var(--red); background:#fffafa; }
.summary.passed { border-left-color:var(--green); }
.summary .sumtext { flex:1; min-width:0; }
.summary .failing-step { font-size:15px; margin:4px 0; }
.summary .shot img { width:320px; height:auto; }
.asked { font-weight:600; }
.err { margin:6px 0; color:var(--red); word-break:break-word; }
.err code { background:var(--redbg); color:var(--red); }
dl.diag { margin:6px 0 0; display:grid; grid-template-columns:max-content 1fr; gap:2px 12px; }
dl.diag dt { color:var(--dim); }
dl.diag dd { margin:0; min-width:0; }
ul.cands { margin:0; padding-left:18px; }
dl.facts { display:flex; flex-wrap:wrap; gap:4px 24px; margin:0 0 16px; padding:8px 12px; background:#fff; border:1px solid var(--line); border-radius:6px; }
dl.facts div { display:flex; gap:6px; align-items:baseline; }
dl.facts dt { color:var(--dim); font-size:12px; }
dl.facts dd { margin:0; }
section.case { background:#fff; border:1px solid var(--line); border-radius:6px; padding:12px 16px; margin:0 0 14px; }
section.case.failed { border-color:#f1c3c0; }
section.case .meta { color:var(--dim); margin:0 0 6px; }
.summary-text { margin:0 0 6px; }
.missing, .assert-failed { background:var(--redbg); border-radius:4px; padding:6px 10px; margin:6px 0; }
ol.steps { list-style:none; margin:8px 0 0; padding:0; }
li.step { border-top:1px solid var(--line); padding:8px 0; }
li.step.failed { background:#fffafa; }
li.step.failing { outline:2px solid var(--red); outline-offset:-2px; padding:8px; border-radius:4px; }
.stephead { display:flex; gap:8px; align-items:baseline; }
.stephead .n { color:var(--dim); min-width:1.6em; text-align:right; font-variant-numeric:tabular-nums; }
.stephead .time { margin-left:auto; color:var(--dim); font-variant-numeric:tabular-nums; white-space:nowrap; }
.stephead .role { color:var(--amber); font-size:12px; }
.stepbody { display:flex; gap:14px; margin:4px 0 0 2.4em; }
.did { flex:1; min-width:0; }
.action { font-weight:600; color:#37474f; }
.loc, .why { margin-top:2px; }
.ok { color:var(--green); font-size:12px; }
.warn { color:var(--amber); font-size:12px; }
.bad { color:var(--red); }
.check { margin-top:2px; }
.url { font-size:12px; word-break:break-all; }
.shot img { display:block; width:240px; height:auto; border:1px solid var(--line); border-radius:3px; background:#fafafa; }
.noshot { font-size:12px; }
.foot { margin-top:24px; }
@media (max-width:800px) { .stepbody, .summary { flex-direction:column; } }
`;
