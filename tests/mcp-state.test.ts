import { describe, expect, it } from 'vitest';
import { BrowserState, type HttpBackend } from '@ariadne/mcp';

// Unit test of the per-client state of the MCP server (pure logic, a fake HTTP backend):
// one session created lazily even under concurrent calls, a session that is gone is
// forgotten, close() deletes what it created.

function fakeBackend() {
  const calls: string[] = [];
  let n = 0;
  const gone = new Set<string>();
  const http: HttpBackend = {
    async request(method, path, opts = {}) {
      calls.push(`${method} ${path}${opts.body ? ` ${JSON.stringify(opts.body)}` : ''}`);
      const json = (status: number, body: unknown) => ({ status, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)) });
      if (method === 'POST' && path === '/v1/sessions') {
        await new Promise((r) => setTimeout(r, 20));
        return json(201, { id: `s${++n}` });
      }
      const id = /^\/v1\/sessions\/([^/]+)/.exec(path)?.[1];
      if (id && gone.has(id)) return json(404, { error: { code: 'session_not_found', message: 'gone' } });
      if (method === 'DELETE') return { status: 204, contentType: '', body: Buffer.alloc(0) };
      return json(200, { ok: true, path });
    },
  };
  return { http, calls, gone };
}

describe('BrowserState', () => {
  it('creates one session for concurrent first calls, forgets it when gone, deletes it on close', async () => {
    const { http, calls, gone } = fakeBackend();
    const state = new BrowserState(http, { idleTimeoutSeconds: 60 });
    const paths = await Promise.all([state.rolePath(), state.rolePath(), state.rolePath()]);
    expect(new Set(paths)).toEqual(new Set(['/v1/sessions/s1/roles/default']));
    expect(calls.filter((c) => c.startsWith('POST /v1/sessions ')).length).toBe(1);
    expect(calls[0]).toContain('"idleTimeoutSeconds":60');

    gone.add('s1');
    const err = await state.call('GET', '/v1/sessions/s1/roles/default/snapshot').catch((e) => e);
    expect(err.code).toBe('session_not_found');
    expect(err.details.hint).toMatch(/next tool call starts a new one/);
    expect(await state.rolePath()).toBe('/v1/sessions/s2/roles/default');

    // A 404 about something else (a run) does not drop the session.
    await state.call('GET', '/v1/sessions/s2/roles/default/snapshot');
    expect(state.sessionId).toBe('s2');

    await state.close();
    expect(calls.at(-1)).toBe('DELETE /v1/sessions/s2');
    await expect(state.session()).rejects.toMatchObject({ code: 'session_closed' });
  });

  it('creates the session with the selected role first, and adds roles later', async () => {
    const { http, calls } = fakeBackend();
    const state = new BrowserState(http);
    expect(await state.selectRole('admin')).toEqual({ created: true });
    expect(calls[0]).toContain('"roles":[{"name":"admin"}]');
    expect(await state.rolePath()).toBe('/v1/sessions/s1/roles/admin');
  });
});
