// The corpus runner, shared by tests/corpus.test.ts and bench/corpus.mjs.
//
// A corpus page is tests/corpus/pages/NAME.html (it loads /corpus/corpus.js, which posts the
// page's own record of what was done to it) and NAME.json, pure data:
//   { "title": "...", "markup": "react", "tasks": [ {
//       "id": "tick", "outcome": { "events": [...], "state": {...}, "allowExtra"?: true },
//       "direct": [["click", "<playwright selector>"], ...],   // proves the checker (no Ariadne)
//       "plans": ["Tick Buy milk", ["Type X into Y", "Press Enter"], ...],
//       "rest": [ [{ "action": "check", "description": "..." }], ... ] } ],
//     "mustFail": [ { "id", "why", "plans": [...], "rest": [...] } ] }
// An outcome is judged from the page record only: `events` must equal the page's semantic
// events as a multiset (each expected object matches on the keys it lists; an unexpected
// extra event is a wrong action unless allowExtra), `state` keys must be deep-equal.
//
// Verdicts per episode:
//   solved  — expected pass: the run/actions passed and the page outcome is right;
//             must-fail: the run failed / an action answered an error.
//   honest  — expected pass, but the run failed (or an action answered an error).
//   silent  — the run passed (actions answered ok) but the page outcome is wrong, or a
//             must-fail episode passed. The worst outcome for a smoke-test product.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORPUS_DIR } from './server.mjs';

export const PAGES_DIR = path.join(CORPUS_DIR, 'pages');

/** Every page of the corpus with its task data. */
export function loadCorpus() {
  return readdirSync(PAGES_DIR).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const name = f.slice(0, -5);
    let data = JSON.parse(readFileSync(path.join(PAGES_DIR, f), 'utf8'));
    // Several pages (one app in several markups) may share their tasks: "include" names a
    // file in shared/, and the page's "direct" map gives its own selectors per task id.
    if (data.include) {
      const shared = JSON.parse(readFileSync(path.join(CORPUS_DIR, 'shared', data.include), 'utf8'));
      data = { ...shared, ...data, tasks: [...(shared.tasks ?? []), ...(data.tasks ?? [])].map((t) => (data.direct?.[t.id] ? { ...t, direct: data.direct[t.id] } : t)), mustFail: [...(shared.mustFail ?? []), ...(data.mustFail ?? [])] };
    }
    return { name, path: `/corpus/pages/${name}.html`, ...data, tasks: data.tasks ?? [], mustFail: data.mustFail ?? [] };
  });
}

const asSteps = (p) => (Array.isArray(p) ? p : [p]);

/** Flatten the corpus into episodes: { id, page, kind: 'plan'|'rest', expect, steps, outcome?, why? }. */
export function episodesOf(corpus, { kinds = ['plan', 'rest'] } = {}) {
  const out = [];
  for (const page of corpus) {
    for (const t of page.tasks) {
      if (kinds.includes('plan')) (t.plans ?? []).forEach((p, i) => out.push({ id: `${page.name}/${t.id}/plan${i + 1}`, page, task: t.id, kind: 'plan', expect: 'pass', steps: asSteps(p), outcome: t.outcome, ...(t.guard ? { guard: t.guard } : {}) }));
      if (kinds.includes('rest')) (t.rest ?? []).forEach((r, i) => out.push({ id: `${page.name}/${t.id}/rest${i + 1}`, page, task: t.id, kind: 'rest', expect: 'pass', steps: Array.isArray(r) ? r : [r], outcome: t.outcome, ...(t.guard ? { guard: t.guard } : {}) }));
    }
    for (const t of page.mustFail) {
      if (kinds.includes('plan')) (t.plans ?? []).forEach((p, i) => out.push({ id: `${page.name}/${t.id}/plan${i + 1}`, page, task: t.id, kind: 'plan', expect: 'fail', steps: asSteps(p), why: t.why, ...(t.guard ? { guard: t.guard } : {}) }));
      if (kinds.includes('rest')) (t.rest ?? []).forEach((r, i) => out.push({ id: `${page.name}/${t.id}/rest${i + 1}`, page, task: t.id, kind: 'rest', expect: 'fail', steps: Array.isArray(r) ? r : [r], why: t.why, ...(t.guard ? { guard: t.guard } : {}) }));
    }
  }
  return out;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a); const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}
const matches = (exp, ev) => Object.entries(exp).every(([k, v]) => deepEqual(ev[k], v));

/** Does the page record show the expected outcome? { ok, why }. */
export function checkOutcome(record, outcome) {
  if (!record) return { ok: false, why: 'the page never loaded with this episode\'s key' };
  const problems = [];
  if (outcome.events) {
    const left = [...record.events];
    for (const exp of outcome.events) {
      const i = left.findIndex((ev) => matches(exp, ev));
      if (i < 0) problems.push(`missing event ${JSON.stringify(exp)}`);
      else left.splice(i, 1);
    }
    if (left.length && !outcome.allowExtra) problems.push(`unexpected event(s) ${left.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  for (const [k, v] of Object.entries(outcome.state ?? {})) {
    if (!deepEqual(record.state[k], v)) problems.push(`state ${k} = ${JSON.stringify(record.state[k])}, expected ${JSON.stringify(v)}`);
  }
  return problems.length ? { ok: false, why: problems.join('; ') } : { ok: true, why: 'outcome seen on the page' };
}

/** What the page saw, in one line (for silent-wrong listings). */
export function describeRecord(record) {
  if (!record) return 'page not loaded';
  const ev = record.events.map((e) => JSON.stringify(e)).join(' ');
  const dom = record.dom.filter((d) => d.type !== 'key' || d.key === 'Enter').slice(-6).map((d) => `${d.type}${d.key ? ':' + d.key : ''} ${d.target}`).join(' | ');
  return `events: ${ev || 'none'}; dom: ${dom || 'none'}`;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function json(method, url, body) {
  const res = await fetch(url, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let parsed; try { parsed = JSON.parse(text); } catch { parsed = text; }
  return { status: res.status, body: parsed };
}

/**
 * The latest record the page posted under key. Posts are asynchronous (a loaded machine may
 * deliver one late), so: return as soon as `until(record)` holds, else once the record has
 * not changed for `quietMs`, at most after `capMs`.
 */
export async function readRecord(corpusUrl, key, { until, quietMs = 400, capMs = 3000 } = {}) {
  const t0 = Date.now();
  let last = null;
  let since = Date.now();
  for (;;) {
    const { body } = await json('GET', `${corpusUrl}/corpus/api/record?k=${encodeURIComponent(key)}`);
    if (body && until?.(body)) return body;
    if (!last || !body || body.seq !== last.seq || body.loadedAt !== last.loadedAt) since = Date.now();
    last = body;
    if ((body && Date.now() - since >= quietMs) || Date.now() - t0 >= capMs) return last;
    await sleep(50);
  }
}

let keySeq = 0;
const newKey = (ep) => `${ep.id.replace(/[^\w-]+/g, '_')}-${Date.now().toString(36)}-${(keySeq++).toString(36)}`;

function verdictOf(ep, passed, check) {
  if (ep.expect === 'fail') return passed ? 'silent' : 'solved';
  if (!passed) return 'honest';
  return check.ok ? 'solved' : 'silent';
}

/**
 * Run plan episodes through POST /v1/runs with the given planner, casesPerRun cases per
 * run (each case opens its page with its own key first), `concurrency` runs at a time.
 */
export async function runPlanEpisodes({ serviceUrl, corpusUrl, episodes, planner = 'rules', casesPerRun = 6, concurrency = 2, runOptions = {}, onResult = () => {} }) {
  const batches = [];
  for (let i = 0; i < episodes.length; i += casesPerRun) batches.push(episodes.slice(i, i + casesPerRun));
  const results = [];
  const runs = [];
  const runBatch = async (batch) => {
    const keys = batch.map(newKey);
    const plan = batch.map((ep, i) => [`#Case ${i + 1}: ${ep.id}`, `- Go to ${corpusUrl}${ep.page.path}?k=${keys[i]}`, ...ep.steps.map((s) => `- ${s}`)].join('\n')).join('\n\n');
    const t0 = performance.now();
    const created = await json('POST', `${serviceUrl}/v1/runs`, { url: `${corpusUrl}/corpus/pages/blank.html`, plan, planner, options: { screenshots: false, trace: false, ...runOptions } });
    if (created.status !== 202) {
      // One bad plan line refuses the whole run: run the cases one by one to pin it down.
      if (batch.length > 1) { for (const ep of batch) await runBatch([ep]); return; }
      const ep = batch[0];
      const r = { episode: ep, passed: false, error: `plan refused: ${created.status} ${JSON.stringify(created.body?.error ?? created.body).slice(0, 300)}`, wallMs: performance.now() - t0 };
      r.verdict = verdictOf(ep, false, null);
      results.push(r); onResult(r);
      return;
    }
    let run;
    for (;;) {
      run = (await json('GET', `${serviceUrl}/v1/runs/${created.body.id}`)).body;
      if (!['queued', 'running'].includes(run.status)) break;
      await sleep(50);
    }
    const wall = performance.now() - t0;
    runs.push({ wallMs: wall, cases: batch.length, status: run.status });
    for (let i = 0; i < batch.length; i++) {
      const ep = batch[i];
      const c = run.report?.cases?.[i];
      const passed = c?.status === 'passed';
      const record = await readRecord(corpusUrl, keys[i], { until: ep.outcome ? (rec) => checkOutcome(rec, ep.outcome).ok : undefined, quietMs: passed ? 400 : 150 });
      const check = ep.outcome ? checkOutcome(record, ep.outcome) : null;
      const failedStep = c?.steps?.find((s) => s.status === 'failed');
      const r = {
        episode: ep, passed, wallMs: c?.durationMs ?? wall,
        verdict: verdictOf(ep, passed, check),
        check, seen: describeRecord(record),
        error: passed ? undefined : (failedStep?.error ? `${failedStep.error.code}: ${failedStep.error.message}` : c?.summary ?? run.error?.message ?? run.status),
        did: (c?.steps ?? []).slice(1).map((s) => `${s.action}${s.params?.value !== undefined ? ` ${JSON.stringify(s.params.value)}` : ''}${s.params?.key ? ` ${s.params.key}` : ''}${s.params?.text ? ` ${JSON.stringify(s.params.text)}` : ''} → ${s.locator?.code ?? s.ref ?? '-'} [${s.status}]`),
      };
      results.push(r); onResult(r);
    }
  };
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, async () => {
    while (next < batches.length) await runBatch(batches[next++]);
  }));
  return { results, runs };
}

/** Run REST-ladder episodes: one session; per episode navigate, then each action by description. */
export async function runRestEpisodes({ serviceUrl, corpusUrl, episodes, onResult = () => {} }) {
  const session = await json('POST', `${serviceUrl}/v1/sessions`, {});
  if (session.status !== 201) throw new Error(`create session: ${session.status} ${JSON.stringify(session.body)}`);
  const base = `${serviceUrl}/v1/sessions/${session.body.id}/roles/default/actions`;
  const results = [];
  try {
    for (const ep of episodes) {
      const key = newKey(ep);
      const nav = await json('POST', base, { action: 'navigate', url: `${corpusUrl}${ep.page.path}?k=${key}` });
      if (nav.status !== 200) throw new Error(`navigate ${ep.page.path}: ${nav.status} ${JSON.stringify(nav.body)}`);
      const t0 = performance.now();
      let passed = true; let error; const did = [];
      for (const step of ep.steps) {
        const res = await json('POST', base, step);
        if (res.status !== 200 || !res.body.ok) {
          passed = false;
          error = `${res.body?.error?.code ?? res.status}: ${res.body?.error?.message ?? ''}`.slice(0, 300);
          did.push(`${step.action} "${step.description ?? ''}" → ${res.body?.error?.code ?? res.status}`);
          // A dialog left open would block the next episode's navigation.
          if (res.body?.error?.code === 'dialog_pending') await json('POST', base, { action: 'handle_dialog', accept: false });
          break;
        }
        if (res.body.dialog) await json('POST', base, { action: 'handle_dialog', accept: true });
        did.push(`${step.action} "${step.description ?? ''}" → ${res.body.target?.resolvedBy ?? '?'} ${res.body.target?.locator ?? res.body.target?.ref ?? ''}`);
      }
      const wallMs = performance.now() - t0;
      const record = await readRecord(corpusUrl, key, { until: ep.outcome ? (rec) => checkOutcome(rec, ep.outcome).ok : undefined, quietMs: passed ? 400 : 150 });
      const check = ep.outcome ? checkOutcome(record, ep.outcome) : null;
      const r = { episode: ep, passed, wallMs, verdict: verdictOf(ep, passed, check), check, seen: describeRecord(record), error, did };
      results.push(r); onResult(r);
    }
  } finally {
    await json('DELETE', `${serviceUrl}/v1/sessions/${session.body.id}`);
  }
  return { results };
}

/** Counts and rates of verdicts. */
export function summarize(results) {
  const n = results.length;
  const count = (v) => results.filter((r) => r.verdict === v).length;
  const s = { episodes: n, solved: count('solved'), honest: count('honest'), silent: count('silent') };
  const pct = (x) => (n ? `${((100 * x) / n).toFixed(1)}%` : 'n/a');
  return { ...s, rates: { solved: pct(s.solved), honest: pct(s.honest), silent: pct(s.silent) } };
}

/** A silent-wrong episode in a few lines: what was asked, what Ariadne did, what the page saw. */
export function explainSilent(r) {
  const ep = r.episode;
  return [
    `${ep.id} [${ep.kind}, expected ${ep.expect}${ep.why ? `: ${ep.why}` : ''}]`,
    `  asked: ${ep.steps.map((s) => (typeof s === 'string' ? s : `${s.action} ${JSON.stringify(s.description ?? '')}${s.value !== undefined ? ` value=${JSON.stringify(s.value)}` : ''}`)).join(' / ')}`,
    `  did:   ${r.did?.join(' ; ') || '-'}`,
    `  page:  ${r.check ? `${r.check.why} — ` : ''}${r.seen}`,
  ].join('\n');
}

/** Apply a direct Playwright script (no Ariadne) to a page: the checker's own proof. */
export async function runDirect(page, ops) {
  for (const [op, sel, arg] of ops) {
    const loc = sel ? page.locator(sel).first() : null;
    if (op === 'click') await loc.click();
    else if (op === 'dblclick') await loc.dblclick();
    else if (op === 'fill') await loc.fill(arg);
    else if (op === 'type') await loc.pressSequentially(arg);
    else if (op === 'press') await (loc ? loc.press(arg) : page.keyboard.press(arg));
    else if (op === 'check') await loc.check();
    else if (op === 'uncheck') await loc.uncheck();
    else if (op === 'hover') await loc.hover();
    else if (op === 'select') await loc.selectOption(arg);
    else if (op === 'dragTo') await loc.dragTo(page.locator(arg).first());
    else if (op === 'upload') await loc.setInputFiles({ name: arg, mimeType: 'application/octet-stream', buffer: Buffer.from('corpus file') });
    else if (op === 'goto') await page.goto(new URL(sel, page.url()).href);
    else throw new Error(`unknown direct op ${op}`);
  }
}
