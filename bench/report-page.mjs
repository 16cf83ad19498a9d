// The HTML report page: time to render a large run (20 cases × 50 steps) against the
// JSON the API serves for the same run (baseline, interleaved in this process), and
// the page's size. Pure CPU: no service, no browser. Figures only, asserts nothing.
import os from 'node:os';
import { reportPage } from '@ariadne/server';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const now = new Date().toISOString();
const step = (c, n) => ({
  n, planStep: n, asked: `Click the "Item ${n}" button in case ${c} <b>`, role: 'default', action: 'click', status: n === 50 && c === 7 ? 'failed' : 'passed',
  startedAt: now, durationMs: 100 + n, screenshot: `c${c}-s${n}.jpg`, url: `https://shop.example/p/${n}`,
  locator: { code: `page.getByRole('button', { name: 'Item ${n}', exact: true })`, verified: true, strategy: 'role', source: 'synthesized' },
  target: { role: 'button', name: `Item ${n}`, rung: 'role:button', why: `button whose name is "Item ${n}"` },
  ...(n === 50 && c === 7 ? { error: { code: 'target_not_found', message: 'No element matches.', details: { nearest: [{ role: 'button', name: 'Item 49', ref: 'e9' }], hint: 'Take a fresh snapshot.' } } } : {}),
});
const cases = Array.from({ length: 20 }, (_, i) => ({
  index: i + 1, name: `Case ${i + 1}`, status: i === 6 ? 'failed' : 'passed', completed: true, summary: '', assertions: [], missingAssertions: [],
  startedAt: now, durationMs: 5000, usage: { turns: 0, inputTokens: 0, outputTokens: 0 }, trace: `c${i + 1}-default-trace.zip`,
  steps: Array.from({ length: 50 }, (_, n) => step(i + 1, n + 1)),
}));
const rec = {
  id: 'run_bench', tenant: 't', status: 'failed', createdAt: now, startedAt: now, finishedAt: now, updatedAt: now, attempts: 1,
  request: { url: 'https://shop.example/', plan: '', planner: 'rules' },
  report: { runId: 'run_bench', url: 'https://shop.example/', planner: 'rules', status: 'failed', startedAt: now, durationMs: 100000, cases, totals: { cases: 20, passed: 19, failed: 1, skipped: 0, cancelled: 0, steps: 1000, assertions: 0, failedAssertions: 0 }, usage: { turns: 0, inputTokens: 0, outputTokens: 0 } },
};
const links = { screenshot: (n) => `/v1/runs/run_bench/artifacts/${n}?exp=1&sig=${'a'.repeat(64)}`, trace: (n) => `/t/${n}`, junit: '/j', spec: '/s', json: '/r' };

const html = [], json = [];
let size = 0, jsonSize = 0;
for (let i = 0; i < iterations + 20; i++) {
  let t = process.hrtime.bigint();
  const page = reportPage(rec, links);
  const a = Number(process.hrtime.bigint() - t) / 1e6;
  t = process.hrtime.bigint();
  const body = JSON.stringify(rec.report);
  const b = Number(process.hrtime.bigint() - t) / 1e6;
  if (i >= 20) { html.push(a); json.push(b); }
  size = page.length; jsonSize = body.length;
}
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`report page, 20 cases × 50 steps, ${iterations} iterations (load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
console.log(`  HTML render: median ${q(html, 0.5).toFixed(2)} ms, p90 ${q(html, 0.9).toFixed(2)} ms, ${(size / 1024).toFixed(0)} KiB`);
console.log(`  JSON (baseline, JSON.stringify of the report): median ${q(json, 0.5).toFixed(2)} ms, p90 ${q(json, 0.9).toFixed(2)} ms, ${(jsonSize / 1024).toFixed(0)} KiB`);
console.log(`  ratio HTML/JSON (medians): ${(q(html, 0.5) / q(json, 0.5)).toFixed(1)}×`);
