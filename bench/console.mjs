// The web console's pages with 1,000 runs and 50 suites stored (issue 28 asks ≤ 150 ms):
// time to the last byte of each page, signed in with a key, medians over --samples
// requests after a warm-up; the suites page also cold (its first view after the runs
// were stored reads every run record behind the strips; later views read the remembered
// statuses). Runs and suite runs are written straight into the stores the service reads.
// Figures only, asserts nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { RunStore } from '@ariadne/flows';
import { SuiteStore } from '@ariadne/suites';
import { intArg, machineLine, runAsScript, startBenchService, timingRow, valueRow } from './lib.mjs';

const KEY = `bench-${randomBytes(12).toString('hex')}`;

function report(runId, url, status, i) {
  const now = new Date().toISOString();
  const steps = Array.from({ length: 6 }, (_, n) => ({
    n: n + 1, planStep: n + 1, asked: `Click the "Item ${n + 1}" button on page ${i % 17}`, role: 'default', action: 'click',
    status: status === 'failed' && n === 5 ? 'failed' : 'passed', startedAt: now, durationMs: 120 + n, screenshot: `c1-s${n + 1}.jpg`, url,
    locator: { code: `page.getByRole('button', { name: 'Item ${n + 1}', exact: true })`, verified: true, strategy: 'role', source: 'synthesized' },
    target: { role: 'button', name: `Item ${n + 1}`, rung: 'role:button', why: 'exact name' },
  }));
  const cases = [{ index: 1, name: `Checkout ${i % 13}`, status, completed: true, summary: '', assertions: [], missingAssertions: [], startedAt: now, durationMs: 4000, usage: { turns: 0, inputTokens: 0, outputTokens: 0 }, steps }];
  return { runId, url, planner: 'rules', status, startedAt: now, durationMs: 4000, cases, totals: { cases: 1, passed: status === 'passed' ? 1 : 0, flaky: 0, failed: status === 'failed' ? 1 : 0, skipped: 0, cancelled: 0, steps: 6, assertions: 0, failedAssertions: 0 }, usage: { turns: 0, inputTokens: 0, outputTokens: 0 } };
}

async function seed(service, tenant, nSuites, nRuns) {
  const { config, redis } = service;
  const runs = new RunStore(redis, config.redisPrefix, config.runs.retentionSeconds);
  const suites = new SuiteStore(redis, config.redisPrefix, config.suites.secretsKey);
  const list = [];
  for (let s = 0; s < nSuites; s++) {
    list.push(await suites.create(tenant, { name: `Suite ${s} <checkout>`, baseUrl: 'https://shop.example/', plans: [{ name: 'main', plan: '#Case 1: Checkout\n- Click "Buy"\n- Verify "Thanks" is visible' }] }));
  }
  const t0 = Date.now() - nRuns * 60_000;
  let lastId = '';
  for (let i = 0; i < nRuns; i++) {
    const suite = list[i % nSuites];
    const createdAt = new Date(t0 + i * 60_000).toISOString();
    const id = randomUUID();
    const status = i % 9 === 0 ? 'failed' : 'passed';
    const suiteRunId = randomUUID();
    await runs.create({
      id, tenant, status, createdAt, startedAt: createdAt, finishedAt: createdAt, updatedAt: createdAt, attempts: 1, node: config.nodeId,
      request: { url: 'https://shop.example/', plan: '', planner: 'rules', suite: { id: suite.id, plan: 'main', trigger: { type: 'github', environment: i % 2 ? 'staging' : 'production', sha: randomBytes(20).toString('hex'), suiteRun: suiteRunId } } },
      report: report(id, 'https://shop.example/', status, i),
    });
    await suites.recordRun(suite.id, { id: suiteRunId, createdAt, baseUrl: 'https://shop.example/', trigger: { type: 'github', environment: 'production' }, runs: [{ plan: 'main', runId: id }], suiteId: suite.id });
    lastId = id;
  }
  for (const step of report(lastId, 'https://shop.example/', 'passed', 0).cases[0].steps) await runs.appendEvent(lastId, { type: 'step', case: 1, step });
  return { suites: list, lastRunId: lastId };
}

async function signIn(url) {
  const page = await fetch(`${url}/console/sign-in`);
  const pre = page.headers.get('set-cookie').split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())[1];
  const res = await fetch(`${url}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pre }, body: new URLSearchParams({ key: KEY, _csrf: csrf }) });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status}`);
  return res.headers.get('set-cookie').split(';')[0];
}

async function time(url, cookie) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, bytes: Buffer.byteLength(text) };
}

export async function run({ quick = false } = {}) {
  const samples = intArg('samples', quick ? 10 : 30);
  const nSuites = intArg('suites', 50);
  const nRuns = intArg('runs', 1000);
  const h = await startBenchService({ API_KEYS: `${KEY}:bench`, POOL_WARM_CONTEXTS: '0' });
  try {
    const seeded = await seed(h.service, 'bench', nSuites, nRuns);
    const cookie = await signIn(h.url);
    const rows = [];
    // The process itself warmed on other pages first: "cold" is the status cache being empty.
    for (const p of ['/console/pressure', '/console/runs', `/console/suites/${seeded.suites[0].id}`]) await time(`${h.url}${p}`, cookie);
    const cold = await time(`${h.url}/console/suites`, cookie);
    rows.push(timingRow('console page', 'suites (cold: no suite-run status remembered yet)', 'ariadne', [cold.ms]));
    const pages = [
      ['suites', '/console/suites'],
      ['suite', `/console/suites/${seeded.suites[0].id}`],
      ['runs', '/console/runs'],
      ['runs ?status=failed', '/console/runs?status=failed'],
      ['runs ?text= (no match: scans all)', '/console/runs?text=nothing-matches-this'],
      ['runs page 20', '/console/runs?page=20'],
      ['run (live steps)', `/console/runs/${seeded.lastRunId}`],
      ['sessions', '/console/sessions'],
      ['pressure', '/console/pressure'],
    ];
    for (const [name, p] of pages) {
      for (let i = 0; i < 3; i++) await time(`${h.url}${p}`, cookie);
      const ms = [];
      let bytes = 0;
      for (let i = 0; i < samples; i++) {
        const r = await time(`${h.url}${p}`, cookie);
        ms.push(r.ms);
        bytes = r.bytes;
      }
      rows.push(timingRow('console page', name, 'ariadne', ms, { note: `${(bytes / 1024).toFixed(1)} KB` }));
    }
    rows.push(valueRow('console data', 'stored', 'ariadne', `${nRuns} runs, ${nSuites} suites`, machineLine()));
    return { rows };
  } finally {
    await h.stop();
  }
}

runAsScript(import.meta.url, run);
