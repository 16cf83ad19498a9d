import { AppError } from '@ariadne/schema';
import { deniedErrorFrom, egressDenial, type FetchLike } from '@ariadne/egress';

// http_request for flows (seed 001): check that an API answers or a webhook fired, from
// the service, with the same address rules as navigation. Bounded: a timeout, a cap on
// the body kept, no redirects followed (a 3xx is an answer; each hop would need its own
// egress check).

export interface HttpRequestSpec {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  durationMs: number;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const KEPT_HEADERS = ['content-type', 'content-length', 'location', 'cache-control', 'etag', 'last-modified'];

export async function httpRequest(
  spec: HttpRequestSpec,
  // fetch: the service's egress-checking fetch (every connection checked on its resolved address).
  o: { timeoutMs: number; maxBytes: number; allowedSchemes: string[]; fetch?: FetchLike },
): Promise<HttpAnswer> {
  const method = spec.method.toUpperCase();
  if (!METHODS.includes(method)) throw new AppError('invalid_request', `HTTP method ${spec.method} is not supported (${METHODS.join(', ')}).`, { field: 'method' });
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    throw new AppError('invalid_request', `"${spec.url}" is not an absolute URL.`, { field: 'url' });
  }
  if (!o.allowedSchemes.includes(url.protocol)) {
    throw new AppError('navigation_blocked', `Requests to ${url.protocol} URLs are not allowed.`, { url: spec.url.slice(0, 200), allowedSchemes: o.allowedSchemes });
  }
  const started = Date.now();
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url.toString(), {
      method,
      headers: spec.headers,
      body: spec.body !== undefined && method !== 'GET' && method !== 'HEAD' ? spec.body : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    const denied = egressDenial(err);
    if (denied) throw deniedErrorFrom(denied, 'url');
    if (e.name === 'TimeoutError') throw new AppError('timeout', `${method} ${url.origin}${url.pathname} did not answer within ${o.timeoutMs} ms.`, { url: `${url.origin}${url.pathname}` });
    throw new AppError('navigation_failed', `${method} ${url.origin}${url.pathname} failed: ${(e.cause as Error | undefined)?.message ?? e.message}`, { url: `${url.origin}${url.pathname}` });
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes + value.length > o.maxBytes) {
        chunks.push(Buffer.from(value.subarray(0, o.maxBytes - bytes)));
        truncated = true;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(Buffer.from(value));
      bytes += value.length;
    }
  }
  const headers: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) headers[h] = v;
  }
  return { status: res.status, statusText: res.statusText, headers, body: Buffer.concat(chunks).toString('utf8'), truncated, durationMs: Date.now() - started };
}
