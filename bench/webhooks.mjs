#!/usr/bin/env node
// Deploy webhooks (issue 13): for N signed GitHub deployment_status deliveries to a
// suite's hook URL, the time from sending the delivery to its 202, and to the first
// step event of the run it started (read from the run's SSE stream). Runs go one after
// the other (each waits for the previous run to finish), against the fixture vault page.
// Figures, not pass/fail. `npm run bench:webhooks` or `node bench/webhooks.mjs --iterations=20`.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fmt, intArg, machineLine, median, min, onCleanup, p90, startBenchService, startStaticServer, table } from './lib.mjs';

const N = intArg('iterations', 20);
const SECRET = randomBytes(16).toString('hex');
const PLAN = ['#Case 1: Unlock', '- Type Robin into "Name"', '- Type {{ACCESS_CODE}} into "Access code"', '- Click the "Unlock" button', '- Verify "Unlocked for Robin" is visible'].join('\n');

const svc = await startBenchService({ SECRETS_KEY: randomBytes(32).toString('hex') });
const site = await startStaticServer();
const cleanup = onCleanup(async () => {
  await svc.stop();
  await site.close();
});

try {
  const res = await fetch(`${svc.url}/v1/suites`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bench', baseUrl: 'http://127.0.0.1:9/', plans: [{ name: 'unlock', plan: PLAN, path: 'vault.html' }],
      secrets: { ACCESS_CODE: 'bench-code' }, options: { trace: false, screenshots: false },
      triggers: [{ type: 'github', secret: SECRET }],
    }),
  });
  const suite = await res.json();
  if (res.status !== 201) throw new Error(`create suite: ${res.status} ${JSON.stringify(suite)}`);
  const hook = suite.triggers[0].url.replace(/^http:\/\/[^/]+/, svc.url);
  const toAccepted = [];
  const toFirstStep = [];
  for (let i = 0; i < N + 1; i++) {
    const body = Buffer.from(JSON.stringify({
      action: 'created',
      deployment_status: { state: 'success', environment: 'staging', environment_url: `${site.url}/suites/` },
      deployment: { sha: randomBytes(20).toString('hex'), environment: 'staging' },
      repository: { full_name: 'acme/shop' },
    }));
    const t0 = performance.now();
    const r = await fetch(hook, {
      method: 'POST',
      headers: {
        'content-type': 'application/json', 'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    const answer = await r.json();
    const accepted = performance.now() - t0;
    if (r.status !== 202) throw new Error(`delivery: ${r.status} ${JSON.stringify(answer)}`);
    // Follow the run's events until its first step, then until it finishes.
    const stop = new AbortController();
    const events = await fetch(`${svc.url}/v1/runs/${answer.runs[0]}/events`, { signal: stop.signal });
    const reader = events.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstStep = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (firstStep === null && text.includes('event: step\n')) firstStep = performance.now() - t0;
      if (text.includes('event: run_finished')) break;
    }
    await reader.cancel().catch(() => {});
    stop.abort();
    // The first delivery warms up (JIT, first context): not counted.
    if (i === 0) continue;
    toAccepted.push(accepted);
    if (firstStep !== null) toFirstStep.push(firstStep);
  }
  console.log(`Deploy webhook → 202 and → first step of the run (${N} deliveries, one at a time; ${machineLine()})\n`);
  table(['measure', 'min ms', 'median ms', 'p90 ms'], [
    ['delivery → 202', fmt(min(toAccepted)), fmt(median(toAccepted)), fmt(p90(toAccepted))],
    ['delivery → first step event', fmt(min(toFirstStep)), fmt(median(toFirstStep)), fmt(p90(toFirstStep))],
  ]);
} finally {
  await cleanup();
}
// Something (not found yet) keeps the event loop alive after the service has stopped:
// end the process once cleanup is done rather than hang.
process.exit(process.exitCode ?? 0);
