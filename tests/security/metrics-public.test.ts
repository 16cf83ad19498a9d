import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gauge } from 'prom-client';
import { startTestService, type TestService } from '../helpers/service.js';
import { rawRequest } from './attack.js';

// Issue 10, item 14 (public side): with METRICS_PUBLIC=1 a scraper and a load balancer
// read /metrics and /v1/pressure?format=text without a key, but no series that names a
// tenant is shown, and everything else still needs a key.

const KEY = 'metrics-key-aaaaaaaaaaaaaaaa';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ API_KEYS: `${KEY}:tenant-secret-name`, METRICS_PUBLIC: '1' });
});

afterAll(async () => {
  await svc?.stop();
});

describe('item 14: public metrics carry no tenant labels', () => {
  it('serves metrics and text pressure without a key, leaving out tenant-labelled series', async () => {
    // A per-tenant series, as quotas or usage accounting would register it.
    const gauge = new Gauge({ name: 'ariadne_tenant_sessions', help: 'Sessions per tenant.', labelNames: ['tenant', 'kind'], registers: [svc.service.metrics.registry] });
    gauge.set({ tenant: 'tenant-secret-name', kind: 'live' }, 3);
    await svc.api.withToken(KEY).createSession();
    const metrics = await rawRequest(svc.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('ariadne_sessions');
    expect(metrics.body).toContain('ariadne_process_');
    expect(metrics.body).not.toMatch(/tenant="/);
    expect(metrics.body).not.toContain('tenant-secret-name');
    // A load balancer's check: plain text, 200 while the node can take work.
    const text = await rawRequest(svc.url, 'GET', '/v1/pressure?format=text');
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.body).toMatch(/^ok \d+\/\d+ leased/);
    expect((await rawRequest(svc.url, 'GET', '/v1/pressure')).status).toBe(200);
    // Everything else still needs a key.
    for (const p of ['/v1/sessions', '/v1/pool', '/v1/runs']) expect((await rawRequest(svc.url, 'GET', p)).status).toBe(401);
  });
});
