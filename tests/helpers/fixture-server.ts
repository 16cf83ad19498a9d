import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-ignore -- plain JS module shared with bench/corpus.mjs
import { handleCorpus } from '../corpus/server.mjs';

// Serves tests/fixtures/ over HTTP on a free loopback port, plus a few dynamic routes
// the fixtures need: a cookie login, a slow response, an echo of request headers.

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

function cookies(header: string | undefined): Record<string, string> {
  return Object.fromEntries((header ?? '').split(';').map((c) => c.trim().split('=')).filter((p) => p[0]).map(([k, ...v]) => [k, decodeURIComponent(v.join('='))]));
}

export async function startFixtureServer(): Promise<FixtureServer> {
  // The fixture shop's announcement (tests/fixtures/app): server-side, so what the admin
  // role publishes is what the customer role sees.
  let banner = '';
  // Text replacements applied to the shop's pages (POST /app/api/patch): a "deploy" that
  // changes the app under a recorded run, for replay and self-healing tests.
  let patches: [string, string][] = [];
  // A page that is broken the first time it is loaded and fine after (flaky-case tests):
  // the count is kept here, per key, so no browser state can carry it.
  const flakyHits = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    try {
      // The targeting corpus (tests/corpus/): its pages and the records they post.
      if (url.pathname.startsWith('/corpus/') && (await handleCorpus(req, res))) return;
      const flaky = /^\/flaky\/([\w-]{1,64})$/.exec(url.pathname);
      if (flaky) {
        const n = (flakyHits.get(flaky[1]) ?? 0) + 1;
        flakyHits.set(flaky[1], n);
        res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
        return res.end(`<!doctype html><title>Flaky</title><main><h1>Status: ${n === 1 ? 'broken' : 'ready'}</h1><p>Load ${n}</p></main>`);
      }
      if (url.pathname === '/app/api/banner') {
        if (req.method === 'POST') {
          let body = '';
          for await (const chunk of req) body += chunk;
          banner = String((JSON.parse(body || '{}') as { text?: unknown }).text ?? '').slice(0, 500);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ text: banner }));
      }
      if (url.pathname === '/app/api/patch' && req.method === 'POST') {
        let body = '';
        for await (const chunk of req) body += chunk;
        patches = ((JSON.parse(body || '{}') as { replace?: [string, string][] }).replace ?? []).filter((p) => Array.isArray(p) && p.length === 2);
        res.writeHead(204);
        return res.end();
      }
      if (patches.length && /^\/app\/[\w-]+\.html$/.test(url.pathname)) {
        let html = await readFile(path.join(FIXTURES_DIR, url.pathname), 'utf8');
        for (const [from, to] of patches) html = html.split(from).join(to);
        res.writeHead(200, { 'content-type': TYPES['.html'] });
        return res.end(html);
      }
      if (url.pathname === '/login' && req.method === 'POST') {
        let body = '';
        for await (const chunk of req) body += chunk;
        const form = new URLSearchParams(body);
        const user = form.get('username') ?? '';
        if (user && form.get('password') === 'secret') {
          res.writeHead(302, { 'set-cookie': `session=${encodeURIComponent(user)}; Path=/; HttpOnly`, location: '/account' });
        } else {
          res.writeHead(302, { location: '/login.html?error=1' });
        }
        return res.end();
      }
      if (url.pathname === '/account') {
        const user = cookies(req.headers.cookie).session;
        res.writeHead(200, { 'content-type': TYPES['.html'] });
        return res.end(`<!doctype html><title>Account</title><main><h1>${user ? `Logged in as ${user}` : 'Logged out'}</h1>${user ? '<a href="/logout">Log out</a>' : '<a href="/login.html">Log in</a>'}</main>`);
      }
      if (url.pathname === '/logout') {
        res.writeHead(302, { 'set-cookie': 'session=; Path=/; Max-Age=0', location: '/account' });
        return res.end();
      }
      if (url.pathname === '/slow') {
        const ms = Math.min(Number(url.searchParams.get('ms') ?? 1000), 30_000);
        await new Promise((r) => setTimeout(r, ms));
        if (url.searchParams.get('as') === 'html') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end(`<!doctype html><title>Slow page</title><main><h1>Slow page</h1><p>Served after ${ms} ms.</p></main>`);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ items: ['Alpha', 'Beta', 'Gamma'], waitedMs: ms }));
      }
      if (url.pathname === '/echo-headers') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(req.headers));
      }
      if (url.pathname === '/status') {
        const code = Number(url.searchParams.get('code') ?? 500);
        res.writeHead(code, { 'content-type': 'text/plain' });
        return res.end(`status ${code}`);
      }
      const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = path.join(FIXTURES_DIR, rel === '/' ? 'index.html' : rel);
      if (!file.startsWith(FIXTURES_DIR)) throw Object.assign(new Error('forbidden'), { code: 'ENOENT' });
      const data = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch (err) {
      res.writeHead((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR' ? 404 : 500, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
