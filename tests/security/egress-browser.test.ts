import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';

// Issue 10, items 3 and 12: the egress policy holds for everything a page does, on
// resolved addresses, with API keys set (strict default). Listeners on loopback
// aliases stand in for internal services: 127.0.0.5 is the "public" site (allowed with
// EGRESS_ALLOW), 127.0.0.2 an internal service, 127.0.0.3 a fake cloud metadata
// server, 127.0.0.1 what `localhost` resolves to. The internal ones count every TCP
// connection they get: a denied request must never reach them.

const KEY = 'egress-browser-key-0123456789';

interface Listener { server: Server; port: number; connections: number; requests: string[]; close(): Promise<void> }

async function listen(host: string, handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<Listener> {
  const server = createServer(handler);
  const l: Listener = {
    server, port: 0, connections: 0, requests: [],
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  server.on('connection', () => { l.connections++; });
  server.on('request', (req) => l.requests.push(req.url ?? ''));
  server.on('upgrade', (req, socket: Socket) => { l.requests.push(`upgrade ${req.url}`); socket.destroy(); });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  l.port = (server.address() as AddressInfo).port;
  return l;
}

let svc: TestService;
let pub: Listener;
let internal: Listener;
let metadata: Listener;
let local: Listener;
let closedPort: number;
let api: TestService['api'];

const secret = (res: import('node:http').ServerResponse) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<title>INTERNAL SECRET</title><h1>internal secret</h1>'); };

function internalUrl(p = '/'): string { return `http://127.0.0.2:${internal.port}${p}`; }

function attackPage(): string {
  const i = `127.0.0.2:${internal.port}`;
  const m = `127.0.0.3:${metadata.port}`;
  return `<!doctype html><title>attack</title>
<img src="http://${i}/img.png">
<iframe src="http://${i}/frame"></iframe>
<iframe src="http://${m}/latest/meta-data/"></iframe>
<link rel="stylesheet" href="https://${i}/style.css">
<script>
const results = {};
const done = [];
const note = (k, p) => done.push(p.then((v) => { results[k] = 'ok ' + v; }, (e) => { results[k] = 'error ' + (e && e.message || e); }));
note('fetch', fetch('http://${i}/fetch').then((r) => r.status));
note('fetch_https', fetch('https://${i}/fetch-https').then((r) => r.status));
note('fetch_localhost', fetch('http://localhost:${local.port}/fetch-localhost').then((r) => r.status));
note('fetch_mapped', fetch('http://[::ffff:127.0.0.2]:${internal.port}/fetch-mapped').then((r) => r.status));
note('xhr', new Promise((res, rej) => { const x = new XMLHttpRequest(); x.open('GET', 'http://${i}/xhr'); x.onload = () => res(x.status); x.onerror = () => rej(new Error('xhr error')); x.send(); }));
for (const [k, u] of [['ws', 'ws://${i}/ws'], ['wss', 'wss://${i}/wss']]) {
  note(k, new Promise((res, rej) => { const w = new WebSocket(u); w.onopen = () => res('open'); w.onerror = () => rej(new Error('ws error')); setTimeout(() => rej(new Error('ws timeout')), 8000); }));
}
note('popup', Promise.resolve(String(!!window.open('http://${i}/popup'))));
Promise.allSettled(done).then(() => { console.log('RESULTS ' + JSON.stringify(results)); const p = document.createElement('p'); p.textContent = 'attack done'; document.body.append(p); });
</script>`;
}

beforeAll(async () => {
  [internal, metadata, local] = await Promise.all([
    listen('127.0.0.2', (_req, res) => secret(res)),
    listen('127.0.0.3', (_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('AccessKeyId: AKIA-FAKE-METADATA'); }),
    listen('127.0.0.1', (_req, res) => secret(res)),
  ]);
  const probe = await listen('127.0.0.5', () => {});
  closedPort = probe.port;
  await probe.close();
  pub = await listen('127.0.0.5', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return res.end();
    }
    if (url.pathname === '/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(`self.addEventListener('message', (e) => {
  fetch('http://127.0.0.2:${internal.port}/from-sw').then((r) => 'status ' + r.status, (err) => 'error ' + err.message)
    .then((v) => e.source.postMessage('SW ' + v));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));`);
    }
    if (url.pathname === '/sw-page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(`<!doctype html><title>sw</title><script>
navigator.serviceWorker.addEventListener('message', (e) => { console.log(e.data); const p = document.createElement('p'); p.textContent = 'sw done'; document.body.append(p); });
navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => reg.active.postMessage('go'))
  .catch((err) => { console.log('SW registration failed ' + err.message); });
</script>`);
    }
    if (url.pathname === '/attack') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(attackPage());
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>public ${url.pathname}</title><h1>public page ${url.pathname}</h1>`);
  });
  svc = await startTestService({ API_KEYS: `${KEY}:acme`, EGRESS_ALLOW: '127.0.0.5/32', NAVIGATION_TIMEOUT_MS: '10000' });
  api = svc.api.withToken(KEY);
});

afterAll(async () => {
  await svc?.stop();
  await Promise.all([pub, internal, metadata, local].map((l) => l?.close()));
});

function pubUrl(p = '/ok'): string { return `http://127.0.0.5:${pub.port}${p}`; }

describe('navigation', () => {
  it('refuses every spelling of an internal address with 403 egress_denied, before the page is touched', async () => {
    const id = await api.createSession();
    expect((await api.action(id, { action: 'navigate', url: pubUrl('/start') })).status).toBe(200);
    const p = internal.port;
    const targets: [string, string][] = [
      [`http://127.0.0.2:${p}/`, 'loopback'],
      [`http://127.2:${p}/`, 'loopback'],
      [`http://2130706434:${p}/`, 'loopback'],
      [`http://0x7f000002:${p}/`, 'loopback'],
      [`http://0177.0.0.2:${p}/`, 'loopback'],
      [`http://[::ffff:127.0.0.2]:${p}/`, 'loopback'],
      [`http://[::ffff:7f00:2]:${p}/`, 'loopback'],
      [`https://127.0.0.2:${p}/`, 'loopback'],
      [`http://localhost:${local.port}/`, 'loopback'],
      [`http://LOCALHOST.:${local.port}/`, 'loopback'],
      [`http://[::1]:${local.port}/`, 'loopback'],
      [`http://127.0.0.3:${metadata.port}/latest/meta-data/`, 'loopback'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata'],
      ['http://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
      ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'metadata'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
      ['http://169.254.1.1/', 'link-local'],
      [`http://0.0.0.0:${p}/`, 'unspecified'],
      [`http://[::]:${p}/`, 'unspecified'],
      ['http://10.0.0.1/', 'private'],
      ['http://172.16.5.4/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://100.64.0.1/', 'private'],
      ['http://[fc00::1]/', 'private'],
      [`${svc.url}/metrics`, 'service_port'],
    ];
    for (const [url, reason] of targets) {
      const res = await api.action(id, { action: 'navigate', url });
      expect(res.status, url).toBe(403);
      expect(res.body.error.code, url).toBe('egress_denied');
      expect(res.body.error.details.reason, url).toBe(reason);
      expect(res.body.error.details.host, url).toBeTruthy();
    }
    // A new tab with a denied URL is refused the same way.
    const tab = await api.post(`/v1/sessions/${id}/roles/default/pages`, { url: `http://127.1:${p}/` });
    expect(tab.status).toBe(403);
    expect(tab.body.error.code).toBe('egress_denied');
    // The page never left the public site, and nothing internal was reached.
    const info = await api.get(`/v1/sessions/${id}`);
    expect(info.body.roles[0].pages.find((pg: any) => pg.active).url).toBe(pubUrl('/start'));
    expect(internal.connections + metadata.connections + local.connections).toBe(0);
    await api.delete(`/v1/sessions/${id}`);
  });

  it('refuses a redirect from an allowed site to an internal one, and the next navigations work (item 12)', async () => {
    const id = await api.createSession();
    for (const to of [internalUrl('/via-redirect'), `http://2130706434:${internal.port}/via-redirect-int`, 'http://169.254.169.254/latest/meta-data/']) {
      const res = await api.action(id, { action: 'navigate', url: pubUrl(`/redirect?to=${encodeURIComponent(to)}`) });
      expect(res.status, to).toBe(403);
      expect(res.body.error.code).toBe('egress_denied');
      const next = await api.action(id, { action: 'navigate', url: pubUrl('/after-redirect') });
      expect(next.status).toBe(200);
    }
    // An https redirect target is refused at the CONNECT.
    const tls = await api.action(id, { action: 'navigate', url: pubUrl(`/redirect?to=${encodeURIComponent(`https://127.0.0.2:${internal.port}/`)}`) });
    expect(tls.status).toBe(403);
    expect(tls.body.error).toMatchObject({ code: 'egress_denied', details: { host: '127.0.0.2', reason: 'loopback' } });
    expect(internal.connections).toBe(0);
    await api.delete(`/v1/sessions/${id}`);
  });

  it('leaves the page clean after a refused navigation: the next three navigations work', async () => {
    const id = await api.createSession();
    // Commands on one tab run in order: sent back to back on the stream, each navigation
    // starts the moment the previous one answered, as a fast agent's would.
    const c = StreamClient.connect(svc.url, id, { token: KEY });
    await c.opened;
    for (const bad of [`https://127.0.0.5:${closedPort}/`, 'http://127.0.0.5:1/', `http://127.0.0.5:${closedPort}/`]) {
      const calls = [c.call('action', { action: 'navigate', url: bad })];
      for (let i = 0; i < 3; i++) calls.push(c.call('action', { action: 'navigate', url: pubUrl(`/next-${i}`) }));
      const [refused, ...next] = await Promise.all(calls);
      expect(refused.error?.code, `${bad}: ${JSON.stringify(refused)}`).toBe('navigation_failed');
      for (const [i, n] of next.entries()) {
        expect(n.error, `${bad} then next ${i}: ${JSON.stringify(n)}`).toBeUndefined();
        expect(n.result.url).toBe(pubUrl(`/next-${i}`));
      }
    }
    c.close();
    await api.delete(`/v1/sessions/${id}`);
  });
});

describe('what a page does', () => {
  it('blocks subresources, fetch, XHR, WebSocket, iframes and popups; logs them as failed and as stream events', async () => {
    const id = await api.createSession();
    const nav = await api.action(id, { action: 'navigate', url: pubUrl('/attack') });
    expect(nav.status).toBe(200);
    const wait = await api.action(id, { action: 'wait_for', text: 'attack done', timeoutMs: 15000 });
    expect(wait.status, JSON.stringify(wait.body)).toBe(200);
    const consoleLog = await api.get(`/v1/sessions/${id}/roles/default/console?limit=200`);
    const line = consoleLog.body.entries.find((e: any) => e.text.startsWith('RESULTS '));
    const results: Record<string, string> = JSON.parse(line.text.slice('RESULTS '.length));
    // Nothing internal was reached, by any of them.
    expect(internal.connections, JSON.stringify(internal.requests)).toBe(0);
    expect(metadata.connections).toBe(0);
    expect(local.connections).toBe(0);
    // fetch/XHR over plain http get the proxy's refusal (403), https/ws/wss fail.
    for (const k of ['fetch_https', 'ws', 'wss']) expect(results[k], `${k}: ${JSON.stringify(results)}`).toMatch(/^error/);
    for (const k of ['fetch', 'xhr', 'fetch_localhost', 'fetch_mapped']) expect(results[k], `${k}: ${JSON.stringify(results)}`).not.toBe('ok 200');

    // The network log shows them as failed, with the reason.
    const net = await api.get(`/v1/sessions/${id}/roles/default/network?failed=true&limit=100`);
    expect(net.status).toBe(200);
    const failures = (net.body.requests ?? net.body.entries ?? []).map((e: any) => `${e.url} ${e.failure ?? e.status}`).join('\n');
    for (const p of ['/img.png', '/frame', '/fetch', '/xhr', '/latest/meta-data/', '/style.css', '/fetch-https']) {
      expect(failures, p).toMatch(new RegExp(`${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\n]* egress_denied: `));
    }

    // The session stream carries egress_denied events (with the reason), WebSockets included.
    const c = StreamClient.connect(svc.url, id, { token: KEY, since: 0 });
    await c.opened;
    await c.waitFor((m) => m.event === 'egress_denied' && m.data?.kind === 'connect');
    await c.waitFor((m) => m.event === 'egress_denied' && m.data?.kind === 'http' && m.data?.reason === 'loopback');
    const hosts = c.messages.filter((m) => m.event === 'egress_denied').map((m) => m.data.host);
    expect(hosts).toContain('127.0.0.2');
    expect(hosts).toContain('127.0.0.3');
    c.close();

    // The popup tab was opened and refused too: its page is the proxy's refusal, not the secret.
    const tabs = await api.get(`/v1/sessions/${id}/roles/default/pages`);
    const popup = (tabs.body.pages ?? tabs.body).find((p: any) => String(p.url).includes('/popup'));
    if (popup) {
      const snap = await api.get(`/v1/sessions/${id}/roles/default/snapshot?page=${popup.id}`);
      expect(JSON.stringify(snap.body)).not.toContain('internal secret');
    }
    await api.delete(`/v1/sessions/${id}`);
  });

  it('the service worker of a page cannot reach internal addresses either', async () => {
    const id = await api.createSession();
    expect((await api.action(id, { action: 'navigate', url: pubUrl('/sw-page') })).status).toBe(200);
    const wait = await api.action(id, { action: 'wait_for', text: 'sw done', timeoutMs: 15000 });
    expect(wait.status, JSON.stringify(wait.body)).toBe(200);
    const log = await api.get(`/v1/sessions/${id}/roles/default/console?limit=200`);
    const line = log.body.entries.find((e: any) => e.text.startsWith('SW '));
    // The worker really ran and really tried (and was refused), and nothing internal was reached.
    expect(line?.text).toMatch(/^SW (error|status 403)/);
    expect(internal.connections).toBe(0);
    const c = StreamClient.connect(svc.url, id, { token: KEY, since: 0 });
    await c.opened;
    await c.waitFor((m) => m.event === 'egress_denied' && String(m.data?.url ?? '').includes('/from-sw'));
    c.close();
    await api.delete(`/v1/sessions/${id}`);
  });
});
