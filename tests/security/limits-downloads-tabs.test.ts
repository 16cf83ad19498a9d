import { createServer, type Server } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';
import { waitUntil } from '../helpers/process.js';

// Issue 10, item 7: downloads and tabs. Before the fix a page could write 300 MB of
// downloads in under 3 s and open tabs without end (101 after 100 popups). Now a session's
// download bytes are capped (DOWNLOAD_MAX_BYTES: the download going over is cancelled and
// its file deleted), downloads can be turned off (DOWNLOADS=off), and tabs per role are
// capped (MAX_TABS_PER_ROLE: popups over it are closed, POST .../pages answers 409
// tab_limit); each refusal is a limit_reached event on the session's stream.

const CAP = 4 * 1024 * 1024;
const MAX_TABS = 5;
// A storm of popups from one click, six times the cap (each popup opened and closed costs
// about a quarter of a second of a loaded machine: 100 took most of the file's time).
const POPUPS = 30;

/** A server that streams ?mb= megabytes as an attachment, and counts what it really sent. */
interface DownloadServer { url: string; sent: Map<string, { bytes: number; finished: boolean; closed: boolean }>; close(): Promise<void> }
async function startDownloadServer(): Promise<DownloadServer> {
  const sent = new Map<string, { bytes: number; finished: boolean; closed: boolean }>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/file') {
      const mb = Number(url.searchParams.get('mb') ?? '1');
      const tag = url.searchParams.get('tag') ?? 'x';
      const rec = { bytes: 0, finished: false, closed: false };
      sent.set(tag, rec);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(mb * 1024 * 1024), 'content-disposition': `attachment; filename="${tag}.bin"` });
      const chunk = Buffer.alloc(64 * 1024, 7);
      let left = mb * 16;
      const pump = () => {
        while (left > 0) {
          left--;
          rec.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        rec.finished = true;
        res.end();
      };
      res.on('close', () => { rec.closed = true; });
      return pump();
    }
    // A page that starts the download by itself once loaded.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Download</title><h1>Download</h1><a id="a" href="/file?${url.searchParams}">file</a>
<script>addEventListener('load', () => setTimeout(() => document.getElementById('a').click(), 50));</script>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sent, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** Files Chromium is writing or wrote for Playwright downloads, with their sizes, newer than since. */
/**
 * Download files Playwright wrote since `since`, in any artifacts dir of the system temp dir.
 * Downloads are named by their guid, with no extension; the traces (.trace, .network,
 * .stacks) that flow runs of tests in the other worker record there are not downloads.
 */
function artifactFiles(since: number): { file: string; size: number }[] {
  const out: { file: string; size: number }[] = [];
  for (const dir of readdirSync(tmpdir()).filter((d) => d.startsWith('playwright-artifacts-'))) {
    let names: string[] = [];
    try { names = readdirSync(path.join(tmpdir(), dir)); } catch { continue; }
    for (const name of names) {
      try {
        const st = statSync(path.join(tmpdir(), dir, name));
        if (st.isFile() && !name.includes('.') && st.mtimeMs >= since) out.push({ file: path.join(dir, name), size: st.size });
      } catch { /* gone */ }
    }
  }
  return out;
}

let fx: FixtureServer;
let dl: DownloadServer;
let svc: TestService;

beforeAll(async () => {
  fx = await startFixtureServer();
  dl = await startDownloadServer();
  svc = await startTestService({ DOWNLOAD_MAX_BYTES: String(CAP), MAX_TABS_PER_ROLE: String(MAX_TABS) });
});
afterAll(async () => {
  await svc?.stop();
  await dl?.close();
  await fx?.close();
});

describe('downloads and tabs', () => {
  it('caps download bytes per session, caps tabs per role, and says so on the stream', async () => {
    const api = svc.api;
    const id = await api.createSession();
    const stream = StreamClient.connect(svc.url, id);
    await stream.opened;
    await stream.waitFor((m) => m.event === 'hello');
    const t0 = Date.now();

    // Within the cap: a 1 MB download just happens.
    expect((await api.action(id, { action: 'navigate', url: `${dl.url}/?mb=1&tag=small` })).status).toBe(200);
    await waitUntil(() => dl.sent.get('small')?.finished, 10_000, 'the small download');
    await stream.waitFor((m) => m.event === 'download');

    // Over the cap: cancelled while it runs, its file deleted, an event says why.
    expect((await api.action(id, { action: 'navigate', url: `${dl.url}/?mb=300&tag=big` })).status).toBe(200);
    const limit = await stream.waitFor((m) => m.event === 'limit_reached' && m.data.limit === 'download_bytes', 35_000);
    expect(limit.data).toMatchObject({ action: 'download_cancelled_and_deleted', max: CAP, suggestedFilename: 'big.bin' });
    expect(limit.data.bytesWritten).toBeGreaterThan(0);
    await waitUntil(() => dl.sent.get('big')?.closed, 10_000, 'the big download to be cut off');
    expect(dl.sent.get('big')!.finished).toBe(false);
    expect(dl.sent.get('big')!.bytes).toBeLessThan(100 * 1024 * 1024);
    // Nothing over the cap stays on disk.
    await waitUntil(() => artifactFiles(t0).every((f) => f.size <= CAP), 10_000, `no download file over the cap (${JSON.stringify(artifactFiles(t0))})`);

    // Tabs: POPUPS popups from one click leave the role at the cap; the rest are closed.
    expect((await api.action(id, { action: 'navigate', url: `${fx.url}/popup-storm.html?n=${POPUPS}` })).status).toBe(200);
    const click = await api.action(id, { action: 'click', description: 'Open popups', settle: 'none', snapshot: 'none' });
    expect(click.status, JSON.stringify(click.body)).toBe(200);
    const refused = await stream.waitFor((m) => m.event === 'limit_reached' && m.data.limit === 'tabs_per_role', 35_000);
    expect(refused.data).toMatchObject({ action: 'popup_closed', max: MAX_TABS });
    await waitUntil(async () => {
      const pages = (await api.get(`/v1/sessions/${id}/roles/default/pages`)).body.pages;
      const inBrowser = svc.service.sessions.liveSessions().find((s) => s.record.id === id)!.role('default').context.pages().length;
      return pages.length === MAX_TABS && inBrowser === MAX_TABS && stream.events('limit_reached').filter((e) => e.data.limit === 'tabs_per_role').length === POPUPS - (MAX_TABS - 1);
    }, 30_000, 'the role to hold exactly the cap of tabs');
    const over = await api.post(`/v1/sessions/${id}/roles/default/pages`, {});
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'tab_limit', details: { max: MAX_TABS } });

    stream.close();
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    const p = svc.service.pool.stats();
    await waitUntil(() => { const s = svc.service.pool.stats(); return s.warming === 0 && s.leased === 0 && s.contexts === s.warm; }, 15_000, `no leaked context (${JSON.stringify(p)})`);
  });

  it('DOWNLOADS=off refuses every download: nothing is written, an event says so', async () => {
    const off = await startTestService({ DOWNLOADS: 'off', POOL_WARM_CONTEXTS: '0' });
    try {
      const id = await off.api.createSession();
      const stream = StreamClient.connect(off.url, id);
      await stream.opened;
      const t0 = Date.now();
      expect((await off.api.action(id, { action: 'navigate', url: `${dl.url}/?mb=20&tag=off` })).status).toBe(200);
      const ev = await stream.waitFor((m) => m.event === 'limit_reached', 20_000);
      expect(ev.data).toMatchObject({ limit: 'downloads_disabled', action: 'download_refused', suggestedFilename: 'off.bin' });
      expect(artifactFiles(t0).filter((f) => f.size > 0)).toEqual([]);
      stream.close();
      expect((await off.api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    } finally {
      await off.stop();
    }
  });
});
