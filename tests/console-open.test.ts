import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';

// The console in open mode (no API keys): no sign-in, tenant "local", but forms still
// need the console's CSRF token (a page of another site must not start a suite run on a
// developer's local service), and the pages keep their CSP and referrer policy.

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ POOL_WARM_CONTEXTS: '0' });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

describe('console in open mode', () => {
  it('opens without sign-in, redirects / to the suites, and shows every page', async () => {
    const home = await fetch(`${svc.url}/`, { redirect: 'manual' });
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/console/suites');
    for (const p of ['/console/suites', '/console/runs', '/console/sessions', '/console/pressure']) {
      const res = await fetch(`${svc.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await res.text();
      expect(html).toContain('Open mode');
      expect(html).not.toContain('Sign out');
    }
    // Nodes are shown to the operator (open mode: whoever runs the service).
    const pressure = await (await fetch(`${svc.url}/console/pressure`)).text();
    expect(pressure).toContain('Live nodes');
  });

  it('still refuses a state-changing form without the CSRF token, or from another site', async () => {
    const created = await svc.api.post('/v1/suites', { name: 'local suite', baseUrl: 'http://127.0.0.1:9/', plans: [{ name: 'p', plan: '#Case 1: x\n- Click "A"' }] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const page = await (await fetch(`${svc.url}/console/suites/${id}`)).text();
    const token = /name="_csrf" value="([^"]+)"/.exec(page)![1];
    const post = (body: Record<string, string>, headers: Record<string, string> = {}) => fetch(`${svc.url}/console/suites/${id}/run`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body),
    });
    const none = await post({ _csrf: '' });
    expect(none.status).toBe(403);
    expect(await none.text()).toContain('csrf_invalid');
    expect((await post({ _csrf: token }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post({ _csrf: token }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await svc.api.get(`/v1/suites/${id}/runs`)).body.runs).toHaveLength(0);
    // With the token, from the page's own origin: the suite run starts.
    const ok = await post({ _csrf: token }, { 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(new RegExp(`^/console/suites/${id}/runs/[\\w-]+$`));
    expect((await svc.api.get(`/v1/suites/${id}/runs`)).body.runs).toHaveLength(1);
  });

  it('answers bad input with a 4xx page naming the error, and the API is unchanged for urlencoded bodies', async () => {
    const bad = await fetch(`${svc.url}/console/runs?page=abc`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('invalid_request');
    const typo = await fetch(`${svc.url}/console/sutes`);
    expect(typo.status).toBe(404);
    expect(typo.headers.get('content-type')).toMatch(/text\/html/);
    expect(await typo.text()).toContain('No console page /console/sutes');
    const missing = await fetch(`${svc.url}/console/runs/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('run_not_found');
    // The form parser is the console's own: the API still refuses a form body.
    const api = await fetch(`${svc.url}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'roles=x' });
    expect(api.status).toBe(400);
    expect(JSON.stringify(await api.json())).toMatch(/Unsupported Media Type/i);
  });
});
