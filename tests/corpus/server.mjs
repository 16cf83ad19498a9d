// Serves the corpus (tests/corpus/) under /corpus/ and keeps the records its pages post
// (/corpus/api/record?k=KEY). Used by the fixture server (tests/helpers/fixture-server.ts
// delegates /corpus/ here) and on its own by bench/corpus.mjs.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' };
const records = new Map();

/** Handle a /corpus/ request; false when the path is not the corpus's. */
export async function handleCorpus(req, res) {
  const url = new URL(req.url ?? '/', 'http://x');
  if (!url.pathname.startsWith('/corpus/')) return false;
  if (url.pathname === '/corpus/api/record') {
    const key = url.searchParams.get('k') ?? '';
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      try {
        const rec = JSON.parse(body);
        const old = records.get(key);
        // Posts may arrive out of order: keep the latest of the latest page load.
        if (!old || rec.loadedAt > old.loadedAt || (rec.loadedAt === old.loadedAt && rec.seq >= old.seq)) records.set(key, rec);
        if (records.size > 20_000) records.delete(records.keys().next().value);
      } catch { /* a half-sent record: ignore */ }
      res.writeHead(204, { 'access-control-allow-origin': '*' });
      res.end();
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(records.get(key) ?? null));
    return true;
  }
  const rel = path.normalize(decodeURIComponent(url.pathname.slice('/corpus/'.length)));
  const file = path.join(CORPUS_DIR, rel);
  if (!file.startsWith(CORPUS_DIR + path.sep) || !/\.(html|js|css|svg)$/.test(file) || /\.mjs$/.test(file)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return true;
  }
  try {
    const data = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(data);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
  return true;
}

/** The corpus alone on a free loopback port (bench). */
export async function startCorpusServer() {
  const server = createServer((req, res) => {
    handleCorpus(req, res).then((handled) => { if (!handled) res.writeHead(404).end('not found'); }, () => { res.writeHead(500).end('error'); });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}
