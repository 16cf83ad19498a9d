import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, loadConfig, startService, type Service } from '@ariadne/server';
import type { PageState } from '@ariadne/page';

// Starts a real Ariadne service in this process (embedded Redis in a temp dir, real
// Chromium) and gives tests a small HTTP client for it.

export interface TestService {
  service: Service;
  url: string;
  api: Api;
  /** Every log line the service wrote (JSON text), when started with { captureLogs: true }. */
  logs: string[];
  stop(): Promise<void>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Api {
  constructor(readonly base: string, private readonly token?: string) {}

  async request<T = any>(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await fetch(this.base + p, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json') ? await res.json() : type.startsWith('image/') ? Buffer.from(await res.arrayBuffer()) : await res.text();
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(p: string) { return this.request<T>('GET', p); }
  post<T = any>(p: string, body?: unknown) { return this.request<T>('POST', p, body ?? {}); }
  delete<T = any>(p: string) { return this.request<T>('DELETE', p); }

  withToken(token: string): Api {
    return new Api(this.base, token);
  }

  /** Create a session and return its id (asserting 201). */
  async createSession(body: unknown = {}): Promise<string> {
    const res = await this.post('/v1/sessions', body);
    if (res.status !== 201) throw new Error(`create session: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  action(id: string, body: unknown, role = 'default', page?: string) {
    return this.post(`/v1/sessions/${id}/roles/${role}/actions${page ? `?page=${page}` : ''}`, body);
  }

  snapshot(id: string, query = '', role = 'default') {
    return this.get(`/v1/sessions/${id}/roles/${role}/snapshot${query ? `?${query}` : ''}`);
  }
}

export async function startTestService(env: Record<string, string> = {}, opts: { captureLogs?: boolean } = {}): Promise<TestService> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    STATE_DIR: stateDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (opts.captureLogs ? 'debug' : 'silent'),
    POOL_BROWSERS: '1',
    POOL_MAX_CONTEXTS_PER_BROWSER: '12',
    POOL_MAX_CONTEXTS: '12',
    POOL_WARM_CONTEXTS: '1',
    ACTION_TIMEOUT_MS: '5000',
    DESCRIBE_WAIT_MS: '500',
    // The fixture server listens on 127.0.0.1, which the egress policy denies by default
    // once API keys are set: allow it (the service's own ports stay denied whatever this says).
    EGRESS_ALLOW: '127.0.0.1/32',
    ...env,
  });
  // The service's own logger (its serializers and redaction), writing into an array.
  const logs: string[] = [];
  const service = opts.captureLogs
    ? await startService(config, createLogger(config, { write: (line: string) => { logs.push(line); } }))
    : await startService(config);
  const url = service.url.replace('[::1]', '127.0.0.1');
  return {
    service,
    url,
    api: new Api(url),
    logs,
    async stop() {
      await service.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A new session whose default tab has navigated to url (asserting 200), and that tab's state in process. */
export async function openTab(svc: TestService, url: string, navigate: Record<string, unknown> = {}): Promise<{ id: string; state: PageState }> {
  const id = await svc.api.createSession();
  const nav = await svc.api.action(id, { action: 'navigate', url, ...navigate });
  if (nav.status !== 200) throw new Error(`navigate ${url}: ${nav.status} ${JSON.stringify(nav.body)}`);
  const state = (await svc.service.sessions.use('local', id)).role('default').page();
  return { id, state };
}

/** Find a ref in a YAML snapshot by role and name: `button "Add to Cart"` → e12. */
export function refOf(snapshot: string, role: string, name?: string): string {
  const re = new RegExp(`- ${role}${name !== undefined ? ` ${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` : ''}[^\\n]*?\\[ref=([a-z0-9]+)\\]`);
  const m = re.exec(snapshot);
  if (!m) throw new Error(`no ${role} ${name ?? ''} in snapshot:\n${snapshot.slice(0, 3000)}`);
  return m[1];
}

export function allRefsOf(snapshot: string, role: string, name?: string): string[] {
  const re = new RegExp(`- ${role}${name !== undefined ? ` ${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` : ''}[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'g');
  return [...snapshot.matchAll(re)].map((m) => m[1]);
}
