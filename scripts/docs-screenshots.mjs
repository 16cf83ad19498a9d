#!/usr/bin/env node
// Retakes the pictures of the docs from the real pages: `node scripts/docs-screenshots.mjs`
// (after `npm run build`). Starts a service (embedded Redis in a temp dir) and the demo
// pages, runs a flow whose second case fails, and saves the first screen of its report
// page, the part that says what broke, as docs/images/report-page.png; then drives a
// session on the shopping list and saves its live view as docs/images/live-view.png.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { loadConfig, startService } from '@ariadne/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs/images');

const PLAN = `#Case 1: Add an item
- Type "milk" into "Item"
- Click the "Add" button
- Verify "1 item" is visible

#Case 2: Remove it again
- Click the "Remove" button next to "milk"
- Verify "0 items" is visible
`;

function startDemo() {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/demo-site.mjs')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (d) => {
      text += d;
      const m = /demo page on (http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
      if (m) resolve({ url: m[1], stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`demo-site exited ${code}: ${text}`)));
  });
}

const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-shots-'));
const demo = await startDemo();
const service = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'warn', POOL_BROWSERS: '1', POOL_MAX_CONTEXTS: '4', POOL_MAX_CONTEXTS_PER_BROWSER: '4', POOL_WARM_CONTEXTS: '0', ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}) }));
const base = service.url.replace('[::1]', '127.0.0.1');
let browser;
try {
  const post = await fetch(`${base}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${demo.url}/`, plan: PLAN }) });
  const { id } = await post.json();
  let run;
  for (const end = Date.now() + 90_000; Date.now() < end;) {
    run = await (await fetch(`${base}/v1/runs/${id}`)).json();
    if (!['queued', 'running'].includes(run.status)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  if (run?.status !== 'failed') throw new Error(`the run should fail in its second case, it is ${run?.status}`);

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 1100, height: 820 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/v1/runs/${id}/report`);
  await page.waitForLoadState('networkidle');
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, 'report-page.png');
  await page.screenshot({ path: file });
  process.stderr.write(`wrote ${path.relative(ROOT, file)}\n`);

  // The live view of a session that has added an item, with its events and snapshot.
  const api = async (method, p, body) => {
    const res = await fetch(`${base}${p}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  const { id: sid } = await api('POST', '/v1/sessions', {});
  await page.goto(`${base}/v1/sessions/${sid}/live`);
  await page.locator('#status').filter({ hasNotText: 'connecting' }).waitFor();
  const act = (body) => api('POST', `/v1/sessions/${sid}/roles/default/actions`, body);
  await act({ action: 'navigate', url: `${demo.url}/` });
  await act({ action: 'fill', description: 'the Item textbox', value: 'milk' });
  await act({ action: 'click', description: 'the Add button' });
  await page.waitForFunction(() => document.querySelector('#frame')?.naturalWidth > 0 && document.querySelector('#snapshot')?.textContent.includes('1 item'), undefined, { timeout: 20_000 }).catch(() => undefined);
  const live = path.join(OUT, 'live-view.png');
  await page.screenshot({ path: live });
  process.stderr.write(`wrote ${path.relative(ROOT, live)}\n`);
  await api('DELETE', `/v1/sessions/${sid}`);
} finally {
  await browser?.close();
  await service.close();
  demo.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
// Something keeps the event loop alive after service.close() in a plain script (the test
// helpers never notice: vitest exits on its own); end here rather than wait for it.
process.exit(0);
