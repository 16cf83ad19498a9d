import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

// Issue 27, item 4: the SMTP listener of the built-in inboxes is one of the service's own
// ports. The review set EGRESS_ALLOW=127.0.0.0/8 (a tenant may reach loopback sites) and
// had a tenant's browser connect to it; the service's own ports must stay denied on every
// local address whatever EGRESS_ALLOW says, for the browser and for the service's own
// outbound requests (a run's callbackUrl) alike.

const KEY = 'own-ports-key-0123456789abcdef';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ API_KEYS: `${KEY}:tenant-a`, EGRESS_ALLOW: '127.0.0.0/8', SMTP_PORT: '0' });
});
afterAll(async () => {
  await svc?.stop();
});

describe('item 4: the SMTP listener is among the own ports egress always denies', () => {
  it('refuses a browser navigation to the SMTP port on any loopback spelling, before connecting', async () => {
    const api = svc.api.withToken(KEY);
    const port = svc.service.smtpPort!;
    expect(port).toBeGreaterThan(0);
    const id = await api.createSession();
    for (const host of ['127.0.0.1', 'localhost', '127.1', '[::ffff:127.0.0.1]']) {
      const res = await api.action(id, { action: 'navigate', url: `http://${host}:${port}/` });
      expect(res.status, `${host}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error.code).toBe('egress_denied');
    }
    // The HTTP port is denied the same way (it always was): the two answer alike.
    const http = await api.action(id, { action: 'navigate', url: `${svc.url}/healthz` });
    expect(http.body.error.code).toBe('egress_denied');
    await api.delete(`/v1/sessions/${id}`);
  });

  it('refuses a run whose callback would reach the SMTP port', async () => {
    const res = await svc.api.withToken(KEY).post('/v1/runs', {
      url: 'http://127.0.0.1:9/', plan: '#Case 1: a\n- Verify "a" is visible', callbackUrl: `http://127.0.0.1:${svc.service.smtpPort}/hook`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'egress_denied', details: { field: 'callbackUrl' } });
  });
});
