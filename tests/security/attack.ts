import http from 'node:http';
import { randomBytes } from 'node:crypto';

// Raw HTTP as an outsider sends it (node:http: fetch refuses Upgrade/Connection
// headers). An answer is either an HTTP response (status, headers, body) or an
// accepted WebSocket upgrade (status 101), which the caller counts as a breach.

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: any;
  upgraded: boolean;
}

export const UPGRADE_ONLY = { upgrade: 'websocket' };
export function fullUpgrade(): Record<string, string> {
  return { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') };
}

export function rawRequest(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 15_000): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method,
      path: url.pathname + url.search,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers },
      agent: false,
    });
    const timer = setTimeout(() => { req.destroy(); reject(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)); }, timeoutMs);
    req.on('upgrade', (res, socket) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, headers: res.headers, body: '', upgraded: true });
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      const done = () => {
        clearTimeout(timer);
        let json: unknown;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json, upgraded: false });
      };
      res.on('end', done);
      // An upgrade refusal may end with the socket closing rather than a clean end.
      res.on('close', done);
    });
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
    if (body !== undefined) req.write(body);
    req.end();
  });
}
