// How the MCP tools reach Ariadne: its own HTTP API, nothing else. Over the network for
// the stdio server (which may run against a remote Ariadne), or in-process (Fastify's
// inject, through the same auth, validation and forwarding) for the /mcp route.

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface HttpBackend {
  request(method: string, path: string, opts?: { query?: Query; body?: unknown }): Promise<HttpAnswer>;
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The service answered with an error (or could not be reached). */
export class AriadneCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A backend over fetch: `baseUrl` of a running Ariadne, `token` its API key. */
export function fetchBackend(baseUrl: string, token?: string, fetchImpl: typeof fetch = fetch): HttpBackend {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async request(method, path, opts = {}) {
      let res: Response;
      try {
        res = await fetchImpl(base + withQuery(path, opts.query), {
          method,
          headers: {
            ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        });
      } catch (err) {
        throw new AriadneCallError(0, 'network_error', `Could not reach Ariadne at ${base}: ${(err as Error).message}`, {
          hint: 'Check --server (or ARIADNE_SERVER) and that the service is running.',
        });
      }
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

/** JSON body of an answer; throws AriadneCallError for a non-2xx answer. */
export function jsonOf<T = any>(a: HttpAnswer): T {
  const text = a.body.toString('utf8');
  let parsed: any = undefined;
  if (text && a.contentType.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (a.status >= 200 && a.status < 300) return (parsed ?? text) as T;
  const e = parsed?.error;
  if (e?.code) throw new AriadneCallError(a.status, e.code, e.message ?? e.code, e.details ?? {});
  throw new AriadneCallError(a.status, 'unexpected_response', `HTTP ${a.status}: ${text.slice(0, 200)}`);
}
